"""The arena: tournaments between bots (built-in or external programs), their schedule, results and storage."""
