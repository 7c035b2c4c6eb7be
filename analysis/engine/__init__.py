"""The engine: one exact walk over any mechanic file, dice that roll again, Willpower rerolls, card decks,
Markov chains, and the exact arithmetic under them all."""
