-- A demo cafe menu, prices in US cents. The pumpkin spice latte is out of season
-- (available = 0): it shows how an unavailable item looks and is refused.

INSERT INTO menu_items (id, name, category, price_minor, currency, available, position) VALUES
    ('espresso',            'Espresso',            'coffee', 300, 'USD', 1, 10),
    ('americano',           'Americano',           'coffee', 350, 'USD', 1, 20),
    ('latte',               'Latte',               'coffee', 475, 'USD', 1, 30),
    ('cappuccino',          'Cappuccino',          'coffee', 450, 'USD', 1, 40),
    ('flat-white',          'Flat White',          'coffee', 425, 'USD', 1, 50),
    ('cold-brew',           'Cold Brew',           'coffee', 400, 'USD', 1, 60),
    ('pumpkin-spice-latte', 'Pumpkin Spice Latte', 'coffee', 575, 'USD', 0, 70),
    ('english-breakfast',   'English Breakfast',   'tea',    300, 'USD', 1, 110),
    ('green-tea',           'Sencha Green Tea',    'tea',    325, 'USD', 1, 120),
    ('chai-latte',          'Chai Latte',          'tea',    450, 'USD', 1, 130),
    ('croissant',           'Butter Croissant',    'bakery', 350, 'USD', 1, 210),
    ('pain-au-chocolat',    'Pain au Chocolat',    'bakery', 395, 'USD', 1, 220),
    ('blueberry-muffin',    'Blueberry Muffin',    'bakery', 325, 'USD', 1, 230),
    ('cinnamon-roll',       'Cinnamon Roll',       'bakery', 425, 'USD', 1, 240),
    ('bagel',               'Bagel with Cream Cheese', 'food', 450, 'USD', 1, 310),
    ('avocado-toast',       'Avocado Toast',       'food',   895, 'USD', 1, 320),
    ('ham-cheese-sandwich', 'Ham & Cheese Sandwich', 'food', 795, 'USD', 1, 330),
    ('granola-bowl',        'Granola Bowl',        'food',   650, 'USD', 1, 340);
