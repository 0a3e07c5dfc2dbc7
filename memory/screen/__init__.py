"""The poisoning screen: lessons that try to instruct the agent are quarantined when written."""
