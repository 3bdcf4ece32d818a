-- The trivia app's games, as SQLite's 0014 (PostgreSQL's types): each belongs to the device that
-- started it, holds its questions in the order asked with the choices in the order shown, and
-- records each answer once.

CREATE TABLE trivia_games (
    id          text NOT NULL PRIMARY KEY,
    device_id   text NOT NULL REFERENCES devices (id),
    -- 'mixed': questions of any difficulty.
    difficulty  text NOT NULL CHECK (difficulty IN ('mixed', 'easy', 'medium', 'hard')),
    -- NULL: questions of any category.
    category    text REFERENCES trivia_categories (id),
    created_at  timestamptz NOT NULL,
    finished_at timestamptz
);

CREATE INDEX trivia_games_by_device ON trivia_games (device_id, created_at);

CREATE TABLE trivia_game_questions (
    game_id      text    NOT NULL REFERENCES trivia_games (id),
    -- 0 for the first question asked.
    position     integer NOT NULL CHECK (position >= 0),
    question_id  text    NOT NULL REFERENCES trivia_questions (id),
    -- The choices as shown: four digits, each an index into (correct_answer, wrong_answer_1,
    -- wrong_answer_2, wrong_answer_3), e.g. '2031'.
    choice_order text    NOT NULL CHECK (length(choice_order) = 4),
    -- The choice given, once answered; NULL before.
    answer       text,
    correct      boolean,
    answered_at  timestamptz,
    CHECK ((answer IS NULL) = (correct IS NULL) AND (answer IS NULL) = (answered_at IS NULL)),
    PRIMARY KEY (game_id, position),
    UNIQUE (game_id, question_id)
);
