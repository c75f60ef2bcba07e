#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""expand.py PAGE.scd FRAGMENT OUT: PAGE with its line '@STANDARD_OPTIONS@' replaced by
FRAGMENT, so that the standard options are written once for every page that has them (the
build runs this, then scdoc; tests/unit/test_manpages.sh compares each page with --help)."""
import sys

page, frag, out = sys.argv[1:4]
text = open(page).read()
if "@STANDARD_OPTIONS@" in text:
    text = text.replace("@STANDARD_OPTIONS@\n", open(frag).read())
open(out, "w").write(text)
