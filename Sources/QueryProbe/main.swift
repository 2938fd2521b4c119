// Replaced by the query differential harness.
print("query probe")
