"""Presenting a position to people: what each option involves, for pictures that let a
player choose by pointing."""
