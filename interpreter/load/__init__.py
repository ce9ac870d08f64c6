"""Loading: YAML text with source positions, validated into the ruleset model."""
