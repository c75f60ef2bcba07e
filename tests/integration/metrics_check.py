#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
#
# metrics_check.py METRICS STATS_BEFORE STATS_AFTER INSTANCE: `xskfctl metrics` read with a
# strict parser of the Prometheus text format (0.0.4) of its own, held against the `stats`
# documents taken just before and just after it. Checks:
#  - the format: every family has one HELP and one TYPE line before its samples and appears
#    once; names and label names are valid; label values are escaped; no series twice;
#    counters end in _total; every value parses as a float;
#  - the two documents agree on every counter (the run no longer moves) except duration_s;
#  - every number and boolean of the document is a sample with the same value, under the name
#    and labels docs/operations.md gives (a second derivation, written here from the doc): the
#    list comes from the live document, so a counter the runs gain and metrics leaves out fails
#    here; only the sections with names of their own (census, ports, plugins, app_stats) are
#    spelled out; every sample comes from the document (nothing invented), xskf_up and the
#    *_info ones aside;
#  - the workers' clocks and wake-ups, which move at rest, lie between the two documents';
#  - xskf_uptime_seconds lies between the two documents' duration_s.
import json
import re
import sys

NAME = re.compile(r'[a-zA-Z_:][a-zA-Z0-9_:]*$')
LNAME = re.compile(r'[a-zA-Z_][a-zA-Z0-9_]*$')


def die(msg):
    sys.exit('metrics_check: ' + msg)


def parse_labels(s, line):
    labels, i = {}, 0
    while i < len(s):
        m = re.match(r'([a-zA-Z_][a-zA-Z0-9_]*)="', s[i:])
        if not m:
            die('bad label at %r' % line)
        name, i, v = m.group(1), i + m.end(), ''
        while True:
            if i >= len(s):
                die('label value not closed: %r' % line)
            c = s[i]
            if c == '\\':
                nxt = s[i + 1]
                if nxt not in '\\"n':
                    die('bad escape in %r' % line)
                v += '\n' if nxt == 'n' else nxt
                i += 2
            elif c == '"':
                i += 1
                break
            elif c == '\n':
                die('raw line feed in a label value')
            else:
                v += c
                i += 1
        if name in labels:
            die('label %s twice in %r' % (name, line))
        labels[name] = v
        if i < len(s):
            if s[i] != ',':
                die('expected , in %r' % line)
            i += 1
    return labels


def parse(text):
    fams, series, order = {}, {}, []
    cur = None
    for line in text.split('\n'):
        if not line:
            continue
        if line.startswith('# HELP '):
            name = line.split(' ')[2]
            if name in fams:
                die('family %s twice' % name)
            fams[name] = {'help': line, 'type': None}
            order.append(name)
            cur = name
            continue
        if line.startswith('# TYPE '):
            _, _, name, typ = line.split(' ')
            if name != cur or fams[name]['type']:
                die('TYPE of %s out of place' % name)
            if typ not in ('counter', 'gauge', 'untyped'):
                die('type %s' % typ)
            fams[name]['type'] = typ
            continue
        if line.startswith('#'):
            die('comment %r' % line)
        m = re.match(r'([^{ ]+)\{(.*)\} (\S+)$', line)
        if not m:
            die('bad sample %r' % line)
        name, lab, val = m.groups()
        if name != cur or not fams[name]['type']:
            die('sample of %s outside its family' % name)
        if not NAME.match(name):
            die('bad name %s' % name)
        if fams[name]['type'] == 'counter' and not name.endswith('_total'):
            die('counter %s without _total' % name)
        if fams[name]['type'] != 'counter' and name.endswith('_total'):
            die('%s %s ends in _total' % (fams[name]['type'], name))
        labels = parse_labels(lab, line)
        key = (name, tuple(sorted(labels.items())))
        if key in series:
            die('series twice: %r' % line)
        series[key] = float(val)
    return fams, series


# The arrays of the document, each with the members that name an element (labels, not values):
# a number elsewhere in an element is a sample named after its path (derive()).
IDS = {'queues': ('port', 'queue', 'worker'), 'workers': ('worker',), 'steering': ('port',),
       'rules': ('id', 'rule'), 'memory_backend': ('worker',)}
# label names of those members, where they differ (the queue's worker is in xskf_queue_info)
LABEL = {'worker': 'worker', 'queue': 'queue', 'port': 'port', 'id': 'id', 'rule': 'rule'}
# sections with names of their own (docs/operations.md): gauges, free-form keys
OWN = ('census', 'plugins', 'app_stats', 'ports')


def derive(parts):
    """The family of the number at @parts (array names singular): 'xskf_' + the path joined by
    '_'; a KEY_ns in seconds; counters add '_total' (the caller takes either)."""
    name = 'xskf_' + '_'.join(parts)
    return name[:-3] + '_seconds' if name.endswith('_ns') else name


def singular(a):
    return a[:-1] if a.endswith('s') and not a.endswith('us') else a


def walk(d, inst, put, known):
    """Every number and boolean of the document outside OWN, by the derivation: put() each."""
    def elem(x, parts, labels, arr):
        ids = IDS.get(arr)
        if ids is None:
            die('the document has an array %r that metrics_check does not know' % arr)
        lab = dict(labels)
        for k in ids:
            if k in x and not (arr == 'queues' and k == 'worker'):
                lab[LABEL[k]] = str(x[k])
        obj(x, parts, lab, skip=ids)

    def obj(x, parts, labels, skip=()):
        for k, v in x.items():
            if k in skip:
                continue
            if isinstance(v, list):
                for e in v:
                    elem(e, parts + [singular(k)], labels, k)
            elif isinstance(v, dict):
                obj(v, parts + [k], labels)
            elif isinstance(v, (bool, int, float)):
                name = derive(parts + [k])
                if k.endswith('_ns') and not isinstance(v, bool):
                    v = v / 1e9
                put(known.get(name, name), labels, v, True)
    for k, v in d.items():
        if k in OWN or not isinstance(v, list):
            continue
        for e in v:
            elem(e, [singular(k)], {}, k)


def expected(d, inst):
    """(name, labels) -> value, from the document, as docs/operations.md names them. A name
    derived by walk() may be the family itself or its '_total' (then a list of both)."""
    e = {}

    def put(name, labels, v, derived=False):
        if isinstance(v, bool):
            v = 1.0 if v else 0.0
        if isinstance(v, (int, float)):
            lab = tuple(sorted(dict(labels, instance=inst).items()))
            e[((name, name + '_total') if derived else (name,), lab)] = float(v)

    put('xskf_uptime_seconds', {}, d['duration_s'])
    put('xskf_census_ok', {}, d['census_ok'])
    for p in d['ports']:
        put('xskf_port_rx_queues', {'port': p['name']}, p['rx_queues'])
        put('xskf_port_numa_node', {'port': p['name']}, p['numa_node'])
    # every other top-level number is named above or a label of xskf_info
    for k, v in d.items():
        if isinstance(v, (int, float)) and k not in ('duration_s', 'census_ok', 'plugin_abi'):
            die('top-level number %r: not known to metrics_check' % k)
    walk(d, inst, put, {})
    names = {'total': 'xskf_umem_frames', 'umem_bytes': 'xskf_umem_bytes',
             'page_size': 'xskf_umem_page_bytes', 'hugepages': 'xskf_umem_hugepages',
             'umem_file': 'xskf_umem_file', 'umem_node': 'xskf_umem_numa_node',
             'umem_pages_on_node': 'xskf_umem_pages_on_node', 'ok': 'xskf_census_worker_ok'}
    for c in d['census']:
        lab = {'worker': str(c['worker'])}
        for k, v in c.items():
            if k == 'worker':
                continue
            if k in names:
                put(names[k], lab, v)
            else:
                put('xskf_census_frames', dict(lab, place=k), v)

    def leaves(v, path):
        if isinstance(v, dict):
            for k, x in v.items():
                leaves(x, path + '.' + k if path else k)
        elif isinstance(v, list):
            for i, x in enumerate(v):
                leaves(x, '%s[%d]' % (path, i))
        else:
            put('xskf_app_stat', {'key': path}, v)
    if d.get('app_stats') is not None:
        leaves(d['app_stats'], '')
    for p in d['plugins']:
        for k, v in p['counters'].items():
            put('xskf_plugin_events_total', {'plugin': p['name'], 'counter': k}, v)
        for w, ws in enumerate(p['workers']):
            for k, v in ws.items():
                put('xskf_plugin_worker_events_total',
                    {'plugin': p['name'], 'worker': str(w), 'counter': k}, v)
    return e


def main():
    text = open(sys.argv[1]).read()
    d1, d2 = (json.load(open(f)) for f in sys.argv[2:4])
    inst = sys.argv[4]
    fams, series = parse(text)
    e1, e2 = expected(d1, inst), expected(d2, inst)
    if set(e1) != set(e2):
        die('the two documents differ in their keys: %s' % sorted(set(e1) ^ set(e2)))
    # what still moves at rest: the uptime, and the workers' clocks and wake-ups (idle)
    moves = lambda k: k[0][0] == 'xskf_uptime_seconds' or k[0][0].startswith('xskf_worker_')
    for k in e1:
        if not moves(k) and e1[k] != e2[k]:
            die('the run still moves: %s %s then %s' % (k, e1[k], e2[k]))
    n, fams_seen, derived = 0, set(), 0
    for k, v in e1.items():
        hit = [(nm, k[1]) for nm in k[0] if (nm, k[1]) in series]
        if len(hit) != 1:
            die('missing: %s %s (from the document: every number under its name)' %
                (' or '.join(k[0]), dict(k[1])))
        got = series[hit[0]]
        fams_seen.add(hit[0][0])
        derived += len(k[0]) > 1
        if moves(k):
            if not e1[k] - 1e-9 <= got <= e2[k] + 1e-9:
                die('%s %s: %r not within %s..%s' % (hit[0][0], dict(k[1]), got, e1[k], e2[k]))
        elif abs(got - v) > 1e-9 * max(1.0, abs(v)):
            die('%s %s: metrics %r, stats %r' % (hit[0][0], dict(k[1]), got, v))
        if fams[hit[0][0]]['type'] == 'counter' and got != int(got) and \
                not hit[0][0].endswith('_seconds_total'):
            die('counter %s is not a whole number: %r' % (hit[0][0], got))
        n += 1
    known = {(nm, k[1]) for k in e1 for nm in k[0]}
    for k in series:
        if k not in known and not k[0].endswith('_info') and k[0] != 'xskf_up':
            die('not from the document: %s %s' % k)
    if series.get(('xskf_up', (('instance', inst),))) != 1.0:
        die('xskf_up is not 1')
    info = [k for k in series if k[0] == 'xskf_info' and dict(k[1])['instance'] == inst]
    if len(info) != 1 or dict(info[0][1])['app'] != d1['app']:
        die('xskf_info: %r' % info)
    print('ok - %d families, %d samples; all %d values of the document agree with stats '
          '(%d by their path in it)' % (len(fams), len(series), n, derived))


if __name__ == '__main__':
    main()
