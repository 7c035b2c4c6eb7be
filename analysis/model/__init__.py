"""The model: a dice mechanic as a file (its format and expressions), rules as data, rule sets, what a game
system is, and the checks of every input."""
