"""Mechanics as data: dice mechanics described in TOML files, counted exactly by one engine."""
