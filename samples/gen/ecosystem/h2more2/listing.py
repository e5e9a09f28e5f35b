"""Listing wrapper of samples/gen/ecosystem/h2more2.sh: runs a listing command (the h2tls group's h2tls/describe_h2.py or
the javah2 group's javah2/wire.py, by path) and writes its output with every control character other than newline and
tab shown as \\xNN, so that gzip-coded DATA frames, which describe_h2.py prints as they are (nginx-gzip-undici),
leave a text file.

    python3 listing.py COMMAND... CAPTURE.pcap
"""

import re
import subprocess
import sys

out = subprocess.run(sys.argv[1:], check=True, capture_output=True, text=True, errors="replace").stdout
sys.stdout.write(re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", lambda m: f"\\x{ord(m.group()):02x}", out))
