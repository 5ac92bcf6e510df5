# SPDX-License-Identifier: GPL-2.0
"""tracedat: the trace.dat version 6 writer that synth-trace.py and
synth-tree.py share (trace-cmd.dat.v6(5)): headers, event formats,
kallsyms, printk strings, cmdlines, then one flyrecord section of ring
buffer pages per CPU."""
import struct

PAGE = 4096
HEADER_PAGE = ('\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n'
               '\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n'
               '\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n'
               '\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n')
HEADER_EVENT = ('# compressed entry header\n\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n'
                '\tarray       :   32 bits\n\n\tpadding     : type == 29\n\ttime_extend : type == 30\n'
                '\ttime_stamp : type == 31\n\tdata max type_len  == 28\n')
COMMON = ('\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n'
          '\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n'
          '\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n'
          '\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n')


def u32(v): return struct.pack('<I', v)
def u64(v): return struct.pack('<Q', v)


def pages(events):
    """Ring buffer pages of one CPU: timestamp, commit, then the events."""
    out, page, base, last = [], None, 0, 0

    def close():
        if page is not None:
            data = bytes(page)
            out.append(struct.pack('<QQ', base, len(data)) + data.ljust(PAGE - 16, b'\0'))
    for t, _, payload in events:
        payload += b'\0' * (-len(payload) % 4)
        assert len(payload) <= 112
        if page is None or t - last >= 1 << 27 or len(page) + 4 + len(payload) > PAGE - 16:
            close()
            page, base, last = bytearray(), t, t
        page += struct.pack('<I', (len(payload) // 4) | ((t - last) << 5)) + payload
        last = t
    close()
    return b''.join(out)


def write(path, systems, formats, funcs, strings, cmdlines, events, ncpus=2):
    """Write @events ((ns, cpu, payload)) of @ncpus CPUs to @path."""
    head = bytearray(b'\x17\x08\x44tracing6\0\0\x08' + u32(PAGE))
    head += b'header_page\0' + u64(len(HEADER_PAGE)) + HEADER_PAGE.encode()
    head += b'header_event\0' + u64(len(HEADER_EVENT)) + HEADER_EVENT.encode()
    head += u32(0)
    head += u32(len(systems))
    for sysname, names in systems.items():
        head += sysname.encode() + b'\0' + u32(len(names))
        for n in names:
            head += u64(len(formats[n])) + formats[n].encode()
    ksyms = ''.join('%x T %s\n' % (a, fn) for fn, a in funcs.items()).encode()
    head += u32(len(ksyms)) + ksyms
    printk = ''.join('0x%x : "%s"\n' % (a, s) for s, a in strings.items()).encode()
    head += u32(len(printk)) + printk
    head += u64(len(cmdlines)) + cmdlines
    head += u32(ncpus) + b'options  \0' + struct.pack('<H', 0) + b'flyrecord\0'
    data = [pages(sorted((e for e in events if e[1] == cpu), key=lambda e: e[0]))
            for cpu in range(ncpus)]
    off = len(head) + 16 * ncpus
    off += -off % PAGE
    for d in data:
        head += u64(off) + u64(len(d))
        off += len(d) + (-len(d) % PAGE)
    out = bytes(head)
    for d in data:
        out += b'\0' * (-len(out) % PAGE) + d
    open(path, 'wb').write(out)
