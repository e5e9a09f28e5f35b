"""Writes the small SQLite database the datasette-mcp scenarios serve: python mkdb.py PATH"""
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
db.executescript("""
DROP TABLE IF EXISTS tools;
CREATE TABLE tools (id INTEGER PRIMARY KEY, name TEXT NOT NULL, calls INTEGER NOT NULL);
INSERT INTO tools (name, calls) VALUES ('add', 3), ('divide', 1), ('echo', 7);
""")
db.commit()
