#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
#
# Writes the seeds of tests/fuzz/corpus/TARGET/ and the dictionaries of tests/fuzz/dict/: small
# valid inputs of each format (and a few that are wrong in one way), built here byte by byte so
# that what each seed is stays readable. Seeds added by hand (regressions: regress-*) are left
# alone. Run it after changing a format:  tests/fuzz/make_seeds.py
import os
import re
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, 'corpus')
DICT = os.path.join(HERE, 'dict')


def write(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


def write_dict(target, words):
    os.makedirs(DICT, exist_ok=True)
    with open(os.path.join(DICT, target + '.dict'), 'w') as f:
        f.write('# libFuzzer dictionary for %s (tests/fuzz/make_seeds.py)\n' % target)
        for w in words:
            if isinstance(w, str):
                w = w.encode()
            f.write('"%s"\n' % ''.join(
                chr(b) if 0x20 <= b < 0x7f and b not in b'"\\' else '\\x%02x' % b for b in w))


# --- packets ---------------------------------------------------------------------------------

def mac(s):
    return bytes(int(x, 16) for x in s.split(':'))


def ip4(s):
    return bytes(int(x) for x in s.split('.'))


def ip6(s):
    import ipaddress
    return ipaddress.IPv6Address(s).packed


def csum(b):
    if len(b) % 2:
        b += b'\0'
    s = sum(struct.unpack('!%dH' % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff


def eth(dst, src, etype):
    return mac(dst) + mac(src) + struct.pack('!H', etype)


def vlan(tci, etype):
    return struct.pack('!HH', tci, etype)


def ipv4(proto, payload, src='192.0.2.1', dst='198.51.100.1', frag=0, opts=b''):
    ihl = 5 + len(opts) // 4
    h = struct.pack('!BBHHHBBH4s4s', 0x40 | ihl, 0, 4 * ihl + len(payload), 1, frag, 64, proto,
                    0, ip4(src), ip4(dst)) + opts
    h = h[:10] + struct.pack('!H', csum(h)) + h[12:]
    return h + payload


def ipv6(nh, payload, src='2001:db8::100', dst='2001:db8::1'):
    return struct.pack('!IHBB', 6 << 28, len(payload), nh, 64) + ip6(src) + ip6(dst) + payload


def udp(sport, dport, payload):
    return struct.pack('!HHHH', sport, dport, 8 + len(payload), 0) + payload


def tcp(sport, dport, payload=b''):
    return struct.pack('!HHIIBBHHH', sport, dport, 1, 0, 5 << 4, 0x02, 65535, 0, 0) + payload


def icmp(payload=b'ping'):
    return struct.pack('!BBHHH', 8, 0, 0, 1, 1) + payload


def vxlan(vni, inner):
    return struct.pack('!BBHI', 0x08, 0, 0, vni << 8) + inner


def geneve(proto, inner, opts=b''):
    return struct.pack('!BBHI', len(opts) // 4, 0, proto, 100 << 8) + opts + inner


MA, MB = '02:00:00:00:00:01', '02:00:00:00:00:02'
inner_v4 = eth('02:00:00:00:01:01', '02:00:00:00:02:01', 0x0800) + \
    ipv4(6, tcp(1234, 80, b'x' * 6), src='10.0.0.1', dst='10.0.0.2')
inner_v6 = eth('02:00:00:00:01:02', '02:00:00:00:02:02', 0x86dd) + \
    ipv6(17, udp(5000, 53, b'query'), src='fd00::1', dst='fd00::2')

frames = {
    'ipv4_tcp': eth(MB, MA, 0x0800) + ipv4(6, tcp(1234, 80)),
    'ipv4_udp': eth(MB, MA, 0x0800) + ipv4(17, udp(1000, 9, b'hello')),
    'ipv4_opts_icmp': eth(MB, MA, 0x0800) + ipv4(1, icmp(), opts=b'\x01\x01\x01\x00'),
    'ipv4_frag_first': eth(MB, MA, 0x0800) + ipv4(17, udp(1000, 9, b'a' * 16), frag=0x2000),
    'ipv4_frag_next': eth(MB, MA, 0x0800) + ipv4(17, b'b' * 16, frag=0x0003),
    'ipv4_sctp': eth(MB, MA, 0x0800) + ipv4(132, struct.pack('!HHII', 1, 2, 3, 0)),
    'ipv4_gre_ip': eth(MB, MA, 0x0800) + ipv4(47, struct.pack('!HHI', 0x2000, 0x0800, 7) +
                                              ipv4(17, udp(1, 2, b'in'), '10.0.0.1', '10.0.0.2')),
    'ipv4_gre_teb': eth(MB, MA, 0x0800) + ipv4(47, struct.pack('!HH', 0, 0x6558) + inner_v4),
    'vlan_ipv4_udp': eth(MB, MA, 0x8100) + vlan(100, 0x0800) + ipv4(17, udp(7, 7, b'v')),
    'qinq_ipv6_tcp': eth(MB, MA, 0x88a8) + vlan(0x20c8, 0x8100) + vlan(5, 0x86dd) +
    ipv6(6, tcp(443, 50000)),
    'ipv6_udp': eth(MB, MA, 0x86dd) + ipv6(17, udp(1000, 9, b'six')),
    'ipv6_hbh_icmpv6': eth(MB, MA, 0x86dd) + ipv6(0, struct.pack('!BB6x', 58, 0) +
                                                  struct.pack('!BBH4x', 128, 0, 0)),
    'ipv6_frag_next': eth(MB, MA, 0x86dd) + ipv6(44, struct.pack('!BBHI', 17, 0, 0x0010, 9) +
                                                 b'c' * 8),
    'ipv6_ah_udp': eth(MB, MA, 0x86dd) + ipv6(51, struct.pack('!BBH4x4x', 17, 1, 0) +
                                              udp(1, 2, b'ah')),
    'arp': eth('ff:ff:ff:ff:ff:ff', MA, 0x0806) + bytes.fromhex('0001080006040001') +
    mac(MA) + ip4('192.0.2.1') + bytes(6) + ip4('192.0.2.2'),
    'vxlan4': eth(MB, MA, 0x0800) + ipv4(17, udp(49152, 4789, vxlan(100, inner_v4)),
                                         src='198.51.100.2', dst='198.51.100.1'),
    'vxlan6': eth(MB, MA, 0x86dd) + ipv6(17, udp(49153, 4789, vxlan(200, inner_v6)),
                                         src='2001:db8::2', dst='2001:db8::1'),
    'geneve_opts': eth(MB, MA, 0x0800) + ipv4(17, udp(49154, 6081, geneve(
        0x6558, inner_v4, opts=struct.pack('!HBBI', 0x0102, 3, 1, 0xdeadbeef)))),
    'geneve_ip': eth(MB, MA, 0x86dd) + ipv6(17, udp(1, 6081, geneve(0x86dd, inner_v6[14:]))),
    'runt': eth(MB, MA, 0x0800)[:10],
    'vlan_trunc': eth(MB, MA, 0x8100) + b'\x00',
    'other_ethertype': eth(MB, MA, 0x88cc) + b'lldp',
}

# hints: a flags byte (0: meta from the parse; 0x01: the meta from the input; high nibble: pull)
for name, f in frames.items():
    write('fuzz_hints', name, b'\x00' + f)
write('fuzz_hints', 'pull_vxlan4', b'\x40' + frames['vxlan4'])
meta = struct.pack('<QIIHHHHHHBBH', 0x123456789, 0xabcdef, 0x7fffffff, 0x2a, 100, 34, 50, 64,
                   84, 14, 0x15, 0)
write('fuzz_hints', 'rawmeta_ipv4_tcp', b'\x01' + meta + frames['ipv4_tcp'])
write_dict('fuzz_hints', [b'\x08\x00', b'\x86\xdd', b'\x81\x00', b'\x88\xa8', b'\x08\x06',
                          b'\x65\x58', b'\x12\xb5', b'\x17\xc1', b'\x45', b'\x46', b'\x60',
                          b'\x20\x00', b'\x00\x03', b'\x2c', b'\x33', b'\x3a', b'\x84', b'\x2f',
                          b'\x3b', b'\x08\x00\x00\x00'])

# vxlan: a flags byte (MTU 1500/9000/1280/65535, bit 2: headroom too small), then the frame
write('fuzz_vxlan', 'decap4', b'\x00' + frames['vxlan4'])
write('fuzz_vxlan', 'decap6', b'\x00' + frames['vxlan6'])
write('fuzz_vxlan', 'decap4_unknown_vni', b'\x00' + eth(MB, MA, 0x0800) + ipv4(
    17, udp(49152, 4789, vxlan(999, inner_v4)), src='198.51.100.2', dst='198.51.100.1'))
write('fuzz_vxlan', 'decap4_opts_padded', b'\x00' + eth(MB, MA, 0x0800) + ipv4(
    17, udp(49152, 4789, vxlan(16777215, inner_v4)), src='198.51.100.2', dst='198.51.100.1',
    opts=b'\x01\x01\x01\x00') + bytes(6))
write('fuzz_vxlan', 'encap_v4_remote', b'\x00' + inner_v4)
write('fuzz_vxlan', 'encap_v6_remote', b'\x01' + inner_v6)
write('fuzz_vxlan', 'encap_default', b'\x00' + eth('02:00:00:00:09:09', MA, 0x0800) +
      ipv4(17, udp(1, 2, b'd')))
write('fuzz_vxlan', 'encap_broadcast_noroom', b'\x04' + eth('ff:ff:ff:ff:ff:ff', MA, 0x0806) +
      bytes(28))
write('fuzz_vxlan', 'encap_mtu', b'\x02' + inner_v4 + bytes(1300))
write('fuzz_vxlan', 'runt', b'\x00' + b'\x02\x00\x00')
write_dict('fuzz_vxlan', [b'\x08\x00', b'\x86\xdd', b'\x12\xb5', b'\x08\x00\x00\x00',
                          b'\x00\x00\x64\x00', b'\x00\x00\xc8\x00', b'\xc6\x33\x64\x01',
                          ip6('2001:db8::1'), mac('02:00:00:00:01:01'),
                          mac('02:00:00:00:01:02'), b'\x45', b'\x11'])

# csum: a flags byte (low 3 bits: cuts; 0x08: the field set to the pseudo-header sum; 0x10: cuts
# after the headers), two bytes per cut (big-endian offsets), then the frame
def csum_seed(flags, cuts, f):
    return bytes([flags | len(cuts)]) + b''.join(struct.pack('!H', c) for c in cuts) + f


tcp_odd = eth(MB, MA, 0x0800) + ipv4(6, tcp(40000, 5201, bytes(range(256)) * 4 + b'odd'))
udp6_big = eth(MB, MA, 0x86dd) + ipv6(17, udp(1000, 9, bytes(i * 7 & 0xff for i in range(3001))))
write('fuzz_csum', 'ipv4_tcp_flat', csum_seed(0x08, [], frames['ipv4_tcp']))
write('fuzz_csum', 'ipv4_tcp_odd_cuts', csum_seed(0x18, [55, 301, 302, 777], tcp_odd))
write('fuzz_csum', 'ipv6_udp_copy_mode', csum_seed(0x18, [1792, 1793, 2500], udp6_big))
write('fuzz_csum', 'qinq_ipv6_tcp_hdr_cut', csum_seed(0x08, [30], frames['qinq_ipv6_tcp']))
write('fuzz_csum', 'vlan_ipv4_udp_empty', csum_seed(0x18, [0, 0, 65535], frames['vlan_ipv4_udp']))
write('fuzz_csum', 'ipv6_ah_udp', csum_seed(0x09, [70], frames['ipv6_ah_udp']))
write('fuzz_csum', 'ipv4_frag_first', csum_seed(0x0a, [40, 50], frames['ipv4_frag_first']))
write_dict('fuzz_csum', [b'\x08\x00', b'\x86\xdd', b'\x81\x00', b'\x88\xa8', b'\x45',
                         b'\x46', b'\x60', b'\x06', b'\x11', b'\x00\x00', b'\xff\xff'])

# pmtu: a flags byte (MTU 1500/9000/1280/626, bit 2: IPv6 underlay, bit 3: headroom too small),
# then a frame too large for the tunnel
big4 = eth('02:00:00:00:01:01', '02:00:00:00:02:01', 0x0800) + \
    ipv4(17, udp(40000, 9, b'x' * 1472), src='192.0.2.1', dst='192.0.2.2', frag=0x4000)
write('fuzz_pmtu', 'icmp4_df', b'\x00' + big4)
write('fuzz_pmtu', 'icmp4_df_v6underlay', b'\x04' + big4)
write('fuzz_pmtu', 'icmp4_noroom', b'\x08' + big4)
write('fuzz_pmtu', 'no_df', b'\x00' + eth('02:00:00:00:01:01', MA, 0x0800) +
      ipv4(17, udp(40000, 9, b'x' * 1472), src='192.0.2.1', dst='192.0.2.2'))
write('fuzz_pmtu', 'icmp4_error', b'\x00' + eth('02:00:00:00:01:01', MA, 0x0800) +
      ipv4(1, struct.pack('!BBHI', 3, 3, 0, 0) + bytes(1472), frag=0x4000))
write('fuzz_pmtu', 'icmp6_udp', b'\x00' + eth('02:00:00:00:01:01', MA, 0x86dd) +
      ipv6(17, udp(40000, 9, b'y' * 1452), src='2001:db8:100::1', dst='2001:db8:100::2'))
write('fuzz_pmtu', 'icmp6_frag_later', b'\x01' + eth('02:00:00:00:01:01', MA, 0x86dd) +
      ipv6(44, struct.pack('!BBHI', 17, 0, 0x0081, 9) + bytes(8000)))
write('fuzz_pmtu', 'icmp6_hbh_error', b'\x00' + eth('02:00:00:00:01:01', MA, 0x86dd) +
      ipv6(0, struct.pack('!BB6x', 58, 0) + struct.pack('!BBH4x', 1, 0, 0) + bytes(1452)))
write_dict('fuzz_pmtu', [b'\x08\x00', b'\x86\xdd', b'\x40\x00', b'\x45', b'\x60', b'\x2c',
                         b'\x3a', b'\x33', b'\x3c', b'\x2b', b'\x00\x81', b'\xff'])

# --- tunnel config ---------------------------------------------------------------------------

confs = {
    'docs_example': 'local 198.51.100.1\nlocal 2001:db8::1\nnexthop-mac 02:54:00:00:00:20\n'
    'vni 100 remote 198.51.100.2 mac 02:54:00:00:00:30\n'
    'vni 200 remote 2001:db8::2 mac 02:54:00:00:00:31     # IPv6 underlay for this one\n'
    'default vni 100 remote 198.51.100.2\n',
    'v6_only': '# IPv6 underlay only\n\nlocal 2001:db8::1\r\nnexthop-mac 02:00:00:00:00:02\r\n'
    'vni 16777215 remote 2001:db8::2 mac 02:00:00:00:01:02\r\n'
    '\tvni 0 remote 2001:db8::3 mac 02:00:00:00:01:03\n',
    'many': 'local 10.0.0.1\nnexthop-mac 02:00:00:00:00:02\n' +
    ''.join('vni %d remote 10.0.1.%d mac 02:00:00:00:%02x:%02x\n' % (i % 7, i + 1, i >> 8, i & 0xff)
            for i in range(20)) + 'default vni 7 remote 10.0.2.1',
    'dup_mac': 'local 198.51.100.1\nnexthop-mac 02:54:00:00:00:20\n'
    'vni 100 remote 198.51.100.2 mac 02:54:00:00:00:30\n'
    'vni 101 remote 198.51.100.3 mac 02:54:00:00:00:30\n',
    'family': 'local 2001:db8::1\nnexthop-mac 02:54:00:00:00:20\n'
    'vni 100 remote 198.51.100.2 mac 02:54:00:00:00:30\n',
    'bad_vni': 'local 198.51.100.1\nnexthop-mac 02:54:00:00:00:20\n'
    'vni 99999999 remote 198.51.100.2 mac 02:54:00:00:00:30\n',
    'multicast': 'local 224.0.0.1\nnexthop-mac 02:54:00:00:00:20\n',
    'two_defaults': 'local 198.51.100.1\nnexthop-mac 02:54:00:00:00:20\n'
    'default vni 1 remote 198.51.100.2\ndefault vni 2 remote 198.51.100.3\n',
}
for name, c in confs.items():
    write('fuzz_tunnel_config', name, c.encode())
write_dict('fuzz_tunnel_config', ['local ', 'nexthop-mac ', 'vni ', ' remote ', ' mac ',
                                  'default ', '# ', '198.51.100.1', '2001:db8::1', '::1',
                                  '::', '255.255.255.255', '127.0.0.1', 'ff02::1',
                                  '02:00:00:00:00:01', '16777215', '16777216', '\r\n', '\t'])

# --- pcap ------------------------------------------------------------------------------------

def pcap(records, endian='<', ns=False, linktype=1, snaplen=65535):
    magic = 0xa1b23c4d if ns else 0xa1b2c3d4
    out = struct.pack(endian + 'IHHiIII', magic, 2, 4, 0, 0, snaplen, linktype)
    for i, r in enumerate(records):
        data, orig = (r, len(r)) if isinstance(r, bytes) else r
        out += struct.pack(endian + 'IIII', 1700000000 + i, 123 * (1000 if ns else 1),
                           len(data), orig) + data
    return out


def pcapng(records):
    def block(btype, body):
        body += bytes(-len(body) % 4)
        n = 12 + len(body)
        return struct.pack('<II', btype, n) + body + struct.pack('<I', n)
    out = block(0x0a0d0d0a, struct.pack('<IHHq', 0x1a2b3c4d, 1, 0, -1))
    out += block(1, struct.pack('<HHI', 1, 0, 65535))
    for r in records:
        out += block(6, struct.pack('<IIIII', 0, 0, 0, len(r), len(r)) + r)
    return out


small = [frames['ipv4_udp'], frames['arp'], frames['ipv6_udp']]
write('fuzz_pcap', 'le_us', pcap(small))
write('fuzz_pcap', 'be_us', pcap(small, endian='>'))
write('fuzz_pcap', 'le_ns', pcap(small, ns=True))
write('fuzz_pcap', 'be_ns', pcap(small, endian='>', ns=True))
write('fuzz_pcap', 'skipped', pcap([(frames['ipv4_tcp'][:40], 54), frames['runt'],
                                    frames['vlan_ipv4_udp']]))
write('fuzz_pcap', 'cut_record', pcap([frames['ipv4_tcp']])[:-10])
write('fuzz_pcap', 'linktype_raw', pcap([frames['ipv4_tcp'][14:]], linktype=101))
write('fuzz_pcap', 'header_only', pcap([]))
write('fuzz_pcap', 'pcapng', pcapng(small))
write_dict('fuzz_pcap', [b'\xd4\xc3\xb2\xa1', b'\xa1\xb2\xc3\xd4', b'\x4d\x3c\xb2\xa1',
                         b'\xa1\xb2\x3c\x4d', b'\x0a\x0d\x0d\x0a', b'\x4d\x3c\x2b\x1a',
                         b'\x02\x00\x04\x00', b'\x01\x00\x00\x00', b'\xff\xff\x00\x00',
                         b'\x06\x00\x00\x00', b'\x01\x00\x00\x00\x00\x00\x00\x00'])

# --- command lines: arguments separated by NUL bytes -----------------------------------------

cmdlines = {
    'one_iface': ['-i', 'veth0'],
    'queues_cpus': ['-i', 'veth0', '-q', '1', '-q', '3', '--batch', '32', '--cpus', '0-1',
                    '--workers', '2'],
    'clustered': ['--interface=eth1', '-zNB', '--json', '--duration', '5', '-b64'],
    'memory': ['-i', 'm0', '--backend', 'memory', '--mem-frames', '100', '--mem-frame',
               'tests/fuzz/corpus/fuzz_hints/ipv4_tcp'],
    'app_opts': ['-i', 'a', '--size', '60', '--imix', '--pcap', 'f.pcap', '--loop'],
    'help': ['--help'],
    'rings': ['-vv', '-i', 'x', '--hugepages', 'off', '--frame-size', '4096', '--frames', '4096',
              '--rx-ring', '512', '--tx-ring', '512', '--fill-ring', '1024', '--comp-ring',
              '1024'],
    'flags': ['-i', 'a', '-i', 'b', '--queue', 'all', '--no-hints', '--force', '--interval',
              '2', '--quiet', '--no-need-wakeup', '-c', '-S'],
    'bad_cluster': ['-vXz', '-i'],
    'non_option': ['-i', 'a', 'extra', '--', '-v'],
    # numbers are decimal: leading zeros read as such, hexadecimal, signs and spaces refused
    'numbers': ['-i', 'a', '-q', '010', '-q', '0x1', '--batch', '+8', '--interval', ' 2',
                '--frames', '0100'],
}
for name, args in cmdlines.items():
    write('fuzz_cli', name, b'\0'.join(a.encode() for a in args))
with open(os.path.join(HERE, '..', '..', 'framework', 'runner', 'cli.c')) as f:
    longs = re.findall(r'\{ "([a-z-]+)", O_', f.read())
write_dict('fuzz_cli', ['--' + o for o in longs] +
           ['--size', '--imix', '--pcap', '--loop', '=', '\0', 'all', 'auto', 'require', 'off',
            'xdp', 'memory', '2048', '4096', '0x', '0-1', ',', '-'])

# --- control socket requests -----------------------------------------------------------------

for name, req in {'stats': b'stats\n', 'plugins': b'plugins\n', 'cmd': b'tunnel reload\n',
                  'cmd_blanks_crlf': b'tunnel   reload  now\r\n', 'no_newline': b'stats',
                  'bad_two_lines': b'stats\nplugins\n', 'bad_name': b'Tunnel reload\n',
                  'name32': b'abcdefghijabcdefghijabcdefghijab x\n',
                  'capture': b'capture dir=rx port=veth0 queue=1 count=100 snaplen=128\n',
                  'capture_none': b'capture\n',
                  'capture_twice': b'capture count=1 count=2\n',
                  'capture_big': b'capture count=99999999999999999999 snaplen=65536\n',
                  'doctor': b'doctor\n', 'bad_doctor_arg': b'doctor now\n'}.items():
    write('fuzz_ctl', name, req)
write_dict('fuzz_ctl', ['stats', 'plugins', 'tunnel', 'reload', '\r\n', '\n', ' ', '-', '_',
                        'capture', 'port=', 'queue=', 'dir=', 'count=', 'snaplen=', 'rx', 'tx',
                        'both', '65535', '0', 'steer', 'add', 'del', 'list', 'doctor'])


# --- xskfctl's JSON reader: the stats document and its edges ---------------------------------
stats = (b'{"app": "xsk-rxdrop", "backend": "memory", "duration_s": 0.051,\n'
         b' "ports": [{"name": "mem0", "ifindex": 0, "rx_queues": 256, "numa_node": -1}],\n'
         b' "queues": [{"port": "mem0", "queue": 0, "worker": 0, "zerocopy": true,\n'
         b'   "rx_packets": 18446744073709551615, "kernel": {"rx_dropped": 0},\n'
         b'   "program": {"redirected": 1000}, "reconciled": true}],\n'
         b' "census": [{"worker": 0, "total": 4096, "ok": true}], "census_ok": true,\n'
         b' "app_stats": {"a": {"b": [1, 2.5e-3, null, false]}},\n'
         b' "plugins": [{"name": "rxdrop", "file": "(built in)", "counters": {},\n'
         b'   "workers": [{}]}]}\n')
write('fuzz_xskfctl_json', 'stats', stats)
write('fuzz_xskfctl_json', 'escapes', b'["a\\"b\\\\c\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00", "caf\xc3\xa9"]')
write('fuzz_xskfctl_json', 'numbers', b'[0, -0, 1.5e+10, -12.25E-3, 18446744073709551616, 1e400]')
write('fuzz_xskfctl_json', 'deep', b'[' * 32 + b']' * 32)
write('fuzz_xskfctl_json', 'too_deep', b'[' * 33 + b']' * 33)
write('fuzz_xskfctl_json', 'lone_surrogate', b'"\\ud800"')
write('fuzz_xskfctl_json', 'bad_utf8', b'"\xc0\xaf"')
write_dict('fuzz_xskfctl_json', ['{', '}', '[', ']', ':', ',', '"', 'true', 'false', 'null',
                                 '\\u', '\\ud83d\\ude00', '\\u0000', '1e', '-0.', '"queues"',
                                 '"port"', '"kernel"', b'\xc3\xa9', b'\xf0\x9f\x98\x80'])

# --- steering rules --------------------------------------------------------------------------

for name, rule in {'udp53': 'udp dport 53 xsk', 'src_drop': 'src 198.51.100.0/24 drop',
                   'v6_cpumap': 'ip6 dst 2001:db8::/32 tcp sport 1024-65535 cpumap 0,2-3',
                   'arp': 'queue 1 vlan 7 arp pass', 'default': 'default pass',
                   'etype': 'ethertype 0x88cc drop', 'comment': 'icmp6 pass # nd',
                   'bad_hostbits': 'src 10.0.0.1/8 drop', 'bad_twice': 'udp udp xsk',
                   'bad_no_action': 'udp dport 53',
                   # numbers are decimal whatever their leading zeros; hex for the EtherType
                   'lead_zero': 'udp dport 053 xsk', 'lead_zero_range': 'tcp dport 0100-0200 drop',
                   'lead_zero_vlan': 'vlan 010 pass', 'lead_zero_08': 'udp dport 08 drop',
                   'etype_dec': 'ethertype 35020 drop', 'bad_hex_port': 'udp dport 0x35 xsk'}.items():
    write('fuzz_steer', name, rule.encode())
write_dict('fuzz_steer', ['queue', 'vlan', 'arp', 'ip', 'ip6', 'ethertype', 'src', 'dst', 'proto',
                          'tcp', 'udp', 'icmp', 'icmp6', 'sctp', 'sport', 'dport', 'xsk', 'pass',
                          'drop', 'cpumap', 'default', '/24', '/128', '::', '0x', '-', ',', '#'])
