-- A demo cafe menu, prices in US cents, as SQLite's 0002 (with the categories SQLite's 0011
-- derives from it). The pumpkin spice latte is out of season (available = false): it shows how
-- an unavailable item looks and is refused.

INSERT INTO menu_categories (id, name, position) VALUES
    ('coffee', 'Coffee', 10),
    ('tea',    'Tea',    110),
    ('bakery', 'Bakery', 210),
    ('food',   'Food',   310);

INSERT INTO menu_items (id, name, category, price_minor, currency, available, position) VALUES
    ('espresso',            'Espresso',            'coffee', 300, 'USD', true,  10),
    ('americano',           'Americano',           'coffee', 350, 'USD', true,  20),
    ('latte',               'Latte',               'coffee', 475, 'USD', true,  30),
    ('cappuccino',          'Cappuccino',          'coffee', 450, 'USD', true,  40),
    ('flat-white',          'Flat White',          'coffee', 425, 'USD', true,  50),
    ('cold-brew',           'Cold Brew',           'coffee', 400, 'USD', true,  60),
    ('pumpkin-spice-latte', 'Pumpkin Spice Latte', 'coffee', 575, 'USD', false, 70),
    ('english-breakfast',   'English Breakfast',   'tea',    300, 'USD', true,  110),
    ('green-tea',           'Sencha Green Tea',    'tea',    325, 'USD', true,  120),
    ('chai-latte',          'Chai Latte',          'tea',    450, 'USD', true,  130),
    ('croissant',           'Butter Croissant',    'bakery', 350, 'USD', true,  210),
    ('pain-au-chocolat',    'Pain au Chocolat',    'bakery', 395, 'USD', true,  220),
    ('blueberry-muffin',    'Blueberry Muffin',    'bakery', 325, 'USD', true,  230),
    ('cinnamon-roll',       'Cinnamon Roll',       'bakery', 425, 'USD', true,  240),
    ('bagel',               'Bagel with Cream Cheese', 'food', 450, 'USD', true, 310),
    ('avocado-toast',       'Avocado Toast',       'food',   895, 'USD', true,  320),
    ('ham-cheese-sandwich', 'Ham & Cheese Sandwich', 'food', 795, 'USD', true,  330),
    ('granola-bowl',        'Granola Bowl',        'food',   650, 'USD', true,  340);
