"""Scenes: what each picture shows, as plain frozen values (no Pillow)."""
