"""Makes a small fixture of an nsys SQLite export: empties OSRT_API and OSRT_CALLCHAINS (on ddp_loop.py's
rank 0 they are ~489,000 `accept` polls of torch's TCPStore server, 6 MB of the 6.3 MB gzipped), keeps
every other table and row as nsys wrote it, VACUUMs, and writes OUT.sqlite.gz (gzip -9, no name/time).

  trim_nsys.py IN.sqlite OUT.sqlite.gz
"""
import gzip
import os
import shutil
import sqlite3
import sys
import tempfile


def main(src, dst):
    with tempfile.TemporaryDirectory() as tmp:
        work = os.path.join(tmp, "trim.sqlite")
        shutil.copy(src, work)
        db = sqlite3.connect(work)
        for table in ("OSRT_API", "OSRT_CALLCHAINS"):
            if db.execute("SELECT count(*) FROM sqlite_master WHERE type='table' AND name=?", (table,)).fetchone()[0]:
                print(f"{table}: {db.execute(f'DELETE FROM {table}').rowcount} rows removed")
        db.commit()
        db.execute("VACUUM")
        db.close()
        with open(work, "rb") as raw, open(dst, "wb") as out:
            with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=out, mtime=0) as packed:
                shutil.copyfileobj(raw, packed)
    print(f"{dst}: {os.path.getsize(dst)} bytes")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
