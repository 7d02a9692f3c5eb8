"""Painters: a scene turned into pixels."""
