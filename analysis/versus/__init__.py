"""Comparisons across systems, above the systems: La Soif, plain Requiem and ten-card tests against V5."""
