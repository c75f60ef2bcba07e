#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
#
# tables_check.py ROWS METRICS STATS_BEFORE STATS_AFTER INSTANCE FAMILY...: every row of the
# counter families' tables (util/counters.c, as `counter_rows all` prints them: path, family,
# help, type) held against one run's stats documents (taken just before and after `xskfctl
# metrics`) and its metrics. For each FAMILY named (the stats document path of its objects,
# e.g. workers[]), the run has at least one such object and, in every one of them:
#  - the row's member is there, in both documents (the document is made from the rows);
#  - `xskfctl metrics` has its sample, under the row's family with the object's labels, of
#    the same value (a KEY_ns member in seconds), between the two documents' values;
#  - the family's TYPE and HELP are the row's.
# A table that gains a row the document or metrics leave out fails here, before any document
# shows it (metrics_check.py takes its list from the document).
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from metrics_check import parse  # noqa: E402  (the strict parser of the format)


def die(msg):
    sys.exit('tables_check: ' + msg)


# the members of an object of each path that are its labels, and their label names
IDS = {'workers[]': ['worker'], 'census[]': ['worker'], 'memory_backend[]': ['worker'],
       'steering[]': ['port'], 'steering[].queues[]': ['queue'],
       'steering[].rules[]': ['id', 'rule']}


def objects(doc, path):
    """(labels, object) of every object at @path ("a[].b[]") of @doc."""
    out, prefix = [({}, doc)], ''
    for part in path.split('.'):
        prefix = prefix + '.' + part if prefix else part
        nxt = []
        for labels, o in out:
            for e in o.get(part[:-2], []):
                nxt.append((dict(labels, **{k: str(e[k]) for k in IDS[prefix]}), e))
        out = nxt
    return out


def number(v, key):
    v = float(int(v)) if isinstance(v, bool) else float(v)
    return v / 1e9 if key.endswith('_ns') else v


def main():
    rows_file, prom, before, after, inst = sys.argv[1:6]
    want = sys.argv[6:]
    fams, series = parse(open(prom).read())
    b, a = json.load(open(before)), json.load(open(after))
    rows = [l.rstrip('\n').split('\t') for l in open(rows_file) if l.strip()]
    checked = 0
    for path in want:
        mine = [r for r in rows if r[0].rsplit('.', 1)[0] == path]
        if not mine:
            die('no row of %s in %s' % (path, rows_file))
        ob, oa = objects(b, path), objects(a, path)
        if not ob or len(ob) != len(oa):
            die('%s: %d objects before, %d after' % (path, len(ob), len(oa)))
        for (lab, eb), (_, ea) in zip(ob, oa):
            for rpath, fam, help_, typ in mine:
                key = rpath.rsplit('.', 1)[1]
                name, extra = fam, {}
                if '{' in fam:
                    name, l = fam[:-1].split('{')
                    ln, lv = l.split('=')
                    extra[ln] = lv.strip('"')
                if key not in eb or key not in ea:
                    die('%s %s: no member %s' % (path, lab, key))
                if name not in fams or fams[name]['type'] != typ or \
                        fams[name]['help'] != '# HELP %s %s' % (name, help_):
                    die('%s: family %s not as its row says (%r)' % (rpath, name, fams.get(name)))
                labels = dict(lab, instance=inst, **extra)
                sk = (name, tuple(sorted(labels.items())))
                if sk not in series:
                    die('%s %s: no sample %s%s' % (rpath, lab, name, labels))
                lo, hi, v = number(eb[key], key), number(ea[key], key), series[sk]
                if not (lo - 1e-9 <= v <= hi + 1e-9):
                    die('%s %s: metrics %r, the document %r then %r' % (rpath, lab, v, lo, hi))
                checked += 1
    print('ok - %d values of %d rows (%s): in the document and in metrics, the same' %
          (checked, sum(1 for r in rows if r[0].rsplit('.', 1)[0] in want), ' '.join(want)))


main()
