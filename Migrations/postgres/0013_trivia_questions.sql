-- The trivia app's question bank, as SQLite's 0013 (PostgreSQL's types; the same rows):
-- categories, and questions each with one correct and three wrong answers, at one of three
-- difficulties. Written for routemap; copied from no question bank.
-- "music" has no hard questions: a hard game of music matches nothing (the no-data screen).

CREATE TABLE trivia_categories (
    id       text    NOT NULL PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
    name     text    NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    position integer NOT NULL UNIQUE
);

CREATE TABLE trivia_questions (
    id             text NOT NULL PRIMARY KEY,
    category       text NOT NULL REFERENCES trivia_categories (id),
    difficulty     text NOT NULL CHECK (difficulty IN ('easy', 'medium', 'hard')),
    text           text NOT NULL CHECK (length(text) BETWEEN 1 AND 500),
    correct_answer text NOT NULL CHECK (length(correct_answer) BETWEEN 1 AND 200),
    wrong_answer_1 text NOT NULL CHECK (length(wrong_answer_1) BETWEEN 1 AND 200),
    wrong_answer_2 text NOT NULL CHECK (length(wrong_answer_2) BETWEEN 1 AND 200),
    wrong_answer_3 text NOT NULL CHECK (length(wrong_answer_3) BETWEEN 1 AND 200),
    -- Four different answers: a choice names exactly one of them.
    CHECK (correct_answer NOT IN (wrong_answer_1, wrong_answer_2, wrong_answer_3)),
    CHECK (wrong_answer_1 NOT IN (wrong_answer_2, wrong_answer_3) AND wrong_answer_2 <> wrong_answer_3)
);

CREATE INDEX trivia_questions_by_filter ON trivia_questions (category, difficulty);

INSERT INTO trivia_categories (id, name, position) VALUES
    ('science', 'Science', 1),
    ('geography', 'Geography', 2),
    ('history', 'History', 3),
    ('literature', 'Literature & art', 4),
    ('music', 'Music', 5);

INSERT INTO trivia_questions (id, category, difficulty, text, correct_answer, wrong_answer_1, wrong_answer_2, wrong_answer_3) VALUES
    ('science-easy-1', 'science', 'easy', 'What gas do plants take in from the air to make their food?', 'Carbon dioxide', 'Oxygen', 'Nitrogen', 'Helium'),
    ('science-easy-2', 'science', 'easy', 'How many legs does a spider have?', '8', '6', '10', '12'),
    ('science-easy-3', 'science', 'easy', 'At sea level, at what temperature in degrees Celsius does water boil?', '100', '90', '110', '212'),
    ('science-easy-4', 'science', 'easy', 'Which planet is closest to the Sun?', 'Mercury', 'Venus', 'Mars', 'Earth'),
    ('science-easy-5', 'science', 'easy', 'Which organ pumps blood around the human body?', 'The heart', 'The lungs', 'The liver', 'The kidneys'),
    ('science-medium-1', 'science', 'medium', 'What is the chemical symbol for sodium?', 'Na', 'So', 'Sd', 'S'),
    ('science-medium-2', 'science', 'medium', 'What is the hardest natural mineral?', 'Diamond', 'Quartz', 'Topaz', 'Corundum'),
    ('science-medium-3', 'science', 'medium', 'Which part of a cell produces most of its energy?', 'The mitochondrion', 'The ribosome', 'The nucleus', 'The Golgi apparatus'),
    ('science-medium-4', 'science', 'medium', 'How many bones does an adult human skeleton usually have?', '206', '186', '212', '256'),
    ('science-medium-5', 'science', 'medium', 'Roughly how fast does light travel in a vacuum?', '300,000 km per second', '30,000 km per second', '3,000,000 km per second', '300 km per second'),
    ('science-hard-1', 'science', 'hard', 'What is the atomic number of carbon?', '6', '12', '8', '14'),
    ('science-hard-2', 'science', 'hard', 'Who described the three laws of planetary motion?', 'Johannes Kepler', 'Galileo Galilei', 'Tycho Brahe', 'Nicolaus Copernicus'),
    ('science-hard-3', 'science', 'hard', 'Which metal has the highest melting point?', 'Tungsten', 'Iron', 'Titanium', 'Platinum'),
    ('science-hard-4', 'science', 'hard', 'What is the SI unit of electrical capacitance?', 'The farad', 'The henry', 'The ohm', 'The tesla'),
    ('science-hard-5', 'science', 'hard', 'Which red blood cell type can be given to patients of any blood group?', 'O negative', 'AB positive', 'A negative', 'B positive'),
    ('geography-easy-1', 'geography', 'easy', 'What is the capital of France?', 'Paris', 'Lyon', 'Marseille', 'Nice'),
    ('geography-easy-2', 'geography', 'easy', 'Which is the largest ocean on Earth?', 'The Pacific Ocean', 'The Atlantic Ocean', 'The Indian Ocean', 'The Arctic Ocean'),
    ('geography-easy-3', 'geography', 'easy', 'On which continent is Egypt?', 'Africa', 'Asia', 'Europe', 'South America'),
    ('geography-easy-4', 'geography', 'easy', 'What is the capital of Japan?', 'Tokyo', 'Kyoto', 'Osaka', 'Hiroshima'),
    ('geography-easy-5', 'geography', 'easy', 'Which country is shaped like a boot?', 'Italy', 'Spain', 'Greece', 'Portugal'),
    ('geography-medium-1', 'geography', 'medium', 'What is the longest river in South America?', 'The Amazon', 'The Paraná', 'The Orinoco', 'The São Francisco'),
    ('geography-medium-2', 'geography', 'medium', 'What is the capital of Canada?', 'Ottawa', 'Toronto', 'Montreal', 'Vancouver'),
    ('geography-medium-3', 'geography', 'medium', 'Which desert covers much of northern Africa?', 'The Sahara', 'The Gobi', 'The Kalahari', 'The Atacama'),
    ('geography-medium-4', 'geography', 'medium', 'In which country is Mount Kilimanjaro?', 'Tanzania', 'Kenya', 'Uganda', 'Ethiopia'),
    ('geography-medium-5', 'geography', 'medium', 'What is the capital of Australia?', 'Canberra', 'Sydney', 'Melbourne', 'Perth'),
    ('geography-hard-1', 'geography', 'hard', 'What is the capital of Mongolia?', 'Ulaanbaatar', 'Astana', 'Bishkek', 'Tashkent'),
    ('geography-hard-2', 'geography', 'hard', 'Which country has the longest coastline in the world?', 'Canada', 'Russia', 'Indonesia', 'Australia'),
    ('geography-hard-3', 'geography', 'hard', 'Lake Titicaca lies on the border of Peru and which other country?', 'Bolivia', 'Chile', 'Ecuador', 'Brazil'),
    ('geography-hard-4', 'geography', 'hard', 'Counting island nations, which is the smallest country in Africa by area?', 'Seychelles', 'The Gambia', 'Eswatini', 'Djibouti'),
    ('geography-hard-5', 'geography', 'hard', 'Which strait separates Asia from North America?', 'The Bering Strait', 'The Strait of Gibraltar', 'The Strait of Hormuz', 'The Strait of Malacca'),
    ('history-easy-1', 'history', 'easy', 'Who was the first president of the United States?', 'George Washington', 'Thomas Jefferson', 'Abraham Lincoln', 'John Adams'),
    ('history-easy-2', 'history', 'easy', 'In which country are the pyramids of Giza?', 'Egypt', 'Mexico', 'Peru', 'Sudan'),
    ('history-easy-3', 'history', 'easy', 'Which ship sank on its first voyage in 1912 after hitting an iceberg?', 'The Titanic', 'The Lusitania', 'The Britannic', 'The Queen Mary'),
    ('history-easy-4', 'history', 'easy', 'In which year did people first walk on the Moon?', '1969', '1959', '1972', '1965'),
    ('history-easy-5', 'history', 'easy', 'Which Roman town was buried by the eruption of Mount Vesuvius in 79 AD?', 'Pompeii', 'Athens', 'Carthage', 'Troy'),
    ('history-medium-1', 'history', 'medium', 'Who was the first emperor of Rome?', 'Augustus', 'Julius Caesar', 'Nero', 'Caligula'),
    ('history-medium-2', 'history', 'medium', 'In which year did the Berlin Wall fall?', '1989', '1991', '1985', '1961'),
    ('history-medium-3', 'history', 'medium', 'Who was the British prime minister for most of the Second World War?', 'Winston Churchill', 'Neville Chamberlain', 'Clement Attlee', 'Anthony Eden'),
    ('history-medium-4', 'history', 'medium', 'Which charter did King John of England seal in 1215?', 'Magna Carta', 'The Bill of Rights', 'The Domesday Book', 'The Act of Union'),
    ('history-medium-5', 'history', 'medium', 'Which people built Machu Picchu?', 'The Inca', 'The Aztecs', 'The Maya', 'The Olmecs'),
    ('history-hard-1', 'history', 'hard', 'In which year did Constantinople fall to the Ottomans?', '1453', '1204', '1492', '1389'),
    ('history-hard-2', 'history', 'hard', 'Who was the first woman to win a Nobel Prize?', 'Marie Curie', 'Dorothy Hodgkin', 'Bertha von Suttner', 'Irène Joliot-Curie'),
    ('history-hard-3', 'history', 'hard', 'Which treaty of 1919 ended the First World War between Germany and the Allies?', 'The Treaty of Versailles', 'The Treaty of Paris', 'The Treaty of Utrecht', 'The Peace of Westphalia'),
    ('history-hard-4', 'history', 'hard', 'Whose nearly intact tomb did Howard Carter open in 1922?', 'Tutankhamun''s', 'Ramesses II''s', 'Khufu''s', 'Akhenaten''s'),
    ('history-hard-5', 'history', 'hard', 'Which empire did Genghis Khan found?', 'The Mongol Empire', 'The Ottoman Empire', 'The Mughal Empire', 'The Timurid Empire'),
    ('literature-easy-1', 'literature', 'easy', 'Who wrote "Romeo and Juliet"?', 'William Shakespeare', 'Charles Dickens', 'Jane Austen', 'Mark Twain'),
    ('literature-easy-2', 'literature', 'easy', 'What does Cinderella leave behind at the ball?', 'A glass slipper', 'A pearl necklace', 'A silk glove', 'A golden ring'),
    ('literature-easy-3', 'literature', 'easy', 'What kind of animal is Winnie-the-Pooh?', 'A bear', 'A pig', 'A rabbit', 'A tiger'),
    ('literature-easy-4', 'literature', 'easy', 'Who painted the Mona Lisa?', 'Leonardo da Vinci', 'Michelangelo', 'Raphael', 'Sandro Botticelli'),
    ('literature-easy-5', 'literature', 'easy', 'Which boy never grows up in J. M. Barrie''s story?', 'Peter Pan', 'Oliver Twist', 'Tom Sawyer', 'Huckleberry Finn'),
    ('literature-medium-1', 'literature', 'medium', 'Who wrote "Pride and Prejudice"?', 'Jane Austen', 'Charlotte Brontë', 'Emily Brontë', 'George Eliot'),
    ('literature-medium-2', 'literature', 'medium', 'Who wrote "One Hundred Years of Solitude"?', 'Gabriel García Márquez', 'Jorge Luis Borges', 'Mario Vargas Llosa', 'Pablo Neruda'),
    ('literature-medium-3', 'literature', 'medium', 'In George Orwell''s "Nineteen Eighty-Four", who is the face on the party''s posters?', 'Big Brother', 'Emmanuel Goldstein', 'O''Brien', 'Winston Smith'),
    ('literature-medium-4', 'literature', 'medium', 'Which Dutch painter cut off part of his own ear?', 'Vincent van Gogh', 'Rembrandt van Rijn', 'Johannes Vermeer', 'Piet Mondrian'),
    ('literature-medium-5', 'literature', 'medium', 'Which epic poem tells of Odysseus''s long journey home?', 'The Odyssey', 'The Iliad', 'The Aeneid', 'Beowulf'),
    ('literature-hard-1', 'literature', 'hard', 'Who wrote "The Brothers Karamazov"?', 'Fyodor Dostoevsky', 'Leo Tolstoy', 'Anton Chekhov', 'Ivan Turgenev'),
    ('literature-hard-2', 'literature', 'hard', 'In Dante''s "Inferno", who guides Dante through Hell?', 'Virgil', 'Beatrice', 'Homer', 'Ovid'),
    ('literature-hard-3', 'literature', 'hard', 'Which author created the detective Hercule Poirot?', 'Agatha Christie', 'Arthur Conan Doyle', 'Dorothy L. Sayers', 'G. K. Chesterton'),
    ('literature-hard-4', 'literature', 'hard', 'Who painted "Guernica"?', 'Pablo Picasso', 'Salvador Dalí', 'Joan Miró', 'Francisco Goya'),
    ('literature-hard-5', 'literature', 'hard', 'In Mary Shelley''s novel, what is the name of the scientist who makes the creature?', 'Victor Frankenstein', 'Henry Clerval', 'Robert Walton', 'Igor'),
    ('music-easy-1', 'music', 'easy', 'How many strings does a standard guitar have?', '6', '4', '5', '7'),
    ('music-easy-2', 'music', 'easy', 'Which instrument usually has 88 keys?', 'The piano', 'The organ', 'The accordion', 'The harpsichord'),
    ('music-medium-1', 'music', 'medium', 'Who composed "The Four Seasons"?', 'Antonio Vivaldi', 'Johann Sebastian Bach', 'Wolfgang Amadeus Mozart', 'George Frideric Handel'),
    ('music-medium-2', 'music', 'medium', 'How many lines does a musical staff have?', '5', '4', '6', '7');
