#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""func_length.py SRC [LIMIT]: every C function of framework/, apps/, tools/, util/ and bpf/
longer than LIMIT lines (default 100), counted from the line of its opening brace to the line of
its closing brace, both included. Data tables (initialisers: `= {`), struct, union and enum
bodies are not functions. Prints `FILE:LINE: NAME is N lines` for each and exits 1 if any.

The style says no function over 100 lines (a function reads on a screen or two, with one
purpose); a check keeps it so, the day a function grows. The reader is not a C parser: it drops
comments, strings, character constants and preprocessor lines, then takes a `{` at file level
whose last token before it is `)` as a function body (kernel style and every macro-made
function alike). Before the tree, it reads a made-up file whose answer it knows, so that a
reader that finds nothing cannot pass."""
import os
import re
import sys

FOLDERS = ('framework', 'apps', 'tools', 'util', 'bpf')


def blank_comment(text, out, i):
    """out[] of the comment that opens at text[i] turned into spaces; the offset past it"""
    j = text.find('*/', i + 2)
    j = len(text) if j < 0 else j + 2
    for k in range(i, j):
        if out[k] != '\n':
            out[k] = ' '
    return j


def blank_line(text, out, i, directive):
    """out[] from text[i] to the end of its line turned into spaces; a @directive's line runs
    on past a backslash-newline and past a comment that starts on it. The offset of its end"""
    n = len(text)
    while i < n and text[i] != '\n':
        if directive and text[i] == '\\' and i + 1 < n and text[i + 1] == '\n':
            out[i] = ' '
            i += 2
        elif directive and text.startswith('/*', i):
            i = blank_comment(text, out, i)
        else:
            out[i] = ' '
            i += 1
    return i


def blank(text):
    """text with comments, string and character literals and preprocessor lines turned into
    spaces: newlines stay, so that offsets still give line numbers"""
    out = list(text)
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in ' \t':
            i += 1
            continue
        if line_start and c == '#':
            # a directive, with its continuation lines (a macro's body is not a function here)
            i = blank_line(text, out, i, True)
            continue
        line_start = False
        if text.startswith('//', i):
            i = blank_line(text, out, i, False)
            continue
        if text.startswith('/*', i):
            i = blank_comment(text, out, i)
            continue
        if c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            for k in range(i, min(j + 1, n)):
                out[k] = ' '
            i = j + 1
            continue
        if c == '\n':
            line_start = True
        i += 1
    return ''.join(out)


def func_name(code, close):
    """the name before the parameter list that ends at code[close] == ')', past attributes"""
    while True:
        depth, i = 0, close
        while i >= 0:
            if code[i] == ')':
                depth += 1
            elif code[i] == '(':
                depth -= 1
                if depth == 0:
                    break
            i -= 1
        m = re.search(r'([A-Za-z_]\w*)\s*$', code[:i])
        if not m:
            return '?'
        name = m.group(1)
        if name not in ('__attribute__', '__attribute', '__declspec'):
            return name
        j = m.start() - 1
        while j >= 0 and code[j].isspace():
            j -= 1
        if j < 0 or code[j] != ')':
            return '?'
        close = j


def long_functions(path, limit):
    """(line, name, length) of each function of path longer than limit lines"""
    with open(path, encoding='utf-8', errors='replace') as f:
        code = blank(f.read())
    found = []
    depth = 0
    start = None
    for m in re.finditer(r'[{}]', code):
        i = m.start()
        if code[i] == '{':
            if depth == 0:
                j = i - 1
                while j >= 0 and code[j].isspace():
                    j -= 1
                start = (i, func_name(code, j)) if j >= 0 and code[j] == ')' else None
            depth += 1
        else:
            depth -= 1
            if depth == 0 and start:
                first = code.count('\n', 0, start[0]) + 1
                last = code.count('\n', 0, i) + 1
                if last - first + 1 > limit:
                    found.append((first, start[1], last - first + 1))
                start = None
    return found


def self_test(tmp_dir):
    """a file with a 101-line function, a 100-line one, a 150-line table, a 120-line macro
    and a function whose braces sit in strings and comments: only the first is too long"""
    body = lambda k: ''.join('\tx += %d; /* { */\n' % i for i in range(k))
    text = ('static int too_long(int x)\n{\n' + body(99) + '}\n'
            'static int __attribute__((unused)) just_right(int x)\n{\n' + body(97) +
            '\treturn x;\n}\n'
            'static const int table[] = {\n' + ''.join('\t%d,\n' % i for i in range(148)) + '};\n'
            '#define BIG(x) { \\\n' + ''.join('\tx; \\\n' for i in range(118)) + '}\n'
            'static const char *s(void)\n{\n\treturn "}}}" "{"; // }\n}\n')
    path = os.path.join(tmp_dir, 'func_length_self_test.%d.c' % os.getpid())
    with open(path, 'w') as f:
        f.write(text)
    try:
        got = long_functions(path, 100)
    finally:
        os.unlink(path)
    return got == [(2, 'too_long', 101)], got


def main():
    src = sys.argv[1]
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    ok, got = self_test(os.environ.get('TMPDIR', '/tmp'))
    if not ok:
        print('FAIL: the reader misjudged its own sample: %r' % (got,))
        return 1
    print('ok - the reader finds the one long function of its sample')
    bad = 0
    files = 0
    for folder in FOLDERS:
        for root, dirs, names in os.walk(os.path.join(src, folder)):
            dirs.sort()
            for name in sorted(names):
                if not name.endswith(('.c', '.h')):
                    continue
                path = os.path.join(root, name)
                files += 1
                for line, func, length in long_functions(path, limit):
                    print('%s:%d: %s is %d lines (at most %d)' %
                          (os.path.relpath(path, src), line, func, length, limit))
                    bad += 1
    if bad:
        print('FAIL: %d function(s) over %d lines in %d files read' % (bad, limit, files))
        return 1
    print('ok - no function over %d lines in %d files of %s' % (limit, files, ', '.join(FOLDERS)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
