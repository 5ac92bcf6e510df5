#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ks-streams.py V6 EVENTS OUT: one trace.dat with two different buffers.

V6 is the flight-recorder fixture as an uncompressed v6 file: its data is
in the instance buffer "rcupoll_flight" and its top buffer is empty.  OUT
gets a top buffer of its own: a copy of the instance's data in which batch
5721's rcu_poll_batch_start is turned into an rcu_poll_kick, so the top
buffer has no batch in flight at its end and the instance has one.
KernelShark opens each buffer as a stream, with the plugins given by -p
(it does not apply them to files added with -a).  EVENTS is the output of
"trace-cmd dump --events -i V6".
"""
import re
import struct
import sys

d = bytearray(open(sys.argv[1], 'rb').read())
fmt = open(sys.argv[2]).read()
PAGE = 4096

# v6 (trace-cmd.dat.v6(5)): the CPU count, "options  ", the options, then
# "flyrecord" and the top buffer's (offset, size) per CPU; option 3
# (BUFFER) holds the offset of the instance's own "flyrecord" table.
opt = d.index(b'options  \0')
ncpus = struct.unpack('<I', d[opt - 4:opt])[0]
k, inst = opt + 10, None
while True:
    oid, size = struct.unpack('<HI', d[k:k + 6])
    if oid == 0:
        break
    if oid == 3:
        inst = struct.unpack('<Q', d[k + 6:k + 14])[0]
    k += 6 + size
assert inst is not None, 'no instance buffer'
top = d.index(b'flyrecord\0', k)
assert d[inst:inst + 10] == b'flyrecord\0' and top != inst


def event_id(name):
    return int(re.search(r'name: %s\s+ID: (\d+)' % name, fmt).group(1))


def field_offset(name, field):
    block = fmt[fmt.index('name: %s\n' % name):]
    return int(re.search(r'field:[^;]* %s;\s*offset:(\d+);' % field, block).group(1))


start, kick = event_id('rcu_poll_batch_start'), event_id('rcu_poll_kick')
off = field_offset('rcu_poll_batch_start', 'batch')
pat, nr = struct.pack('<H', start), struct.pack('<Q', 5721)
patched = 0
for cpu in range(ncpus):
    o, size = struct.unpack('<QQ', d[inst + 10 + 16 * cpu:inst + 26 + 16 * cpu])
    data = bytearray(d[o:o + size])
    for i in range(len(data) - off - 8):
        if data[i:i + 2] == pat and data[i + off:i + off + 8] == nr:
            data[i:i + 2] = struct.pack('<H', kick)
            patched += 1
    d += b'\0' * (-len(d) % PAGE)
    new = len(d)
    d += data
    d[top + 10 + 16 * cpu:top + 26 + 16 * cpu] = struct.pack('<QQ', new if size else 0, size)
assert patched == 1, patched
open(sys.argv[3], 'wb').write(d)
