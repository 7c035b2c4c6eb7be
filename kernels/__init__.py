"""Numba-compiled enumeration kernels: integer arrays in, integer arrays out."""
