"""Scenario tests: named cases in ``<game>.tests.yaml`` that pin down how a game plays."""
