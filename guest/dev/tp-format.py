#!/usr/bin/env python3
# Developer helper: reformat the TRACE_EVENT blocks of include/trace/events/rcu_poll.h so that
# checkpatch --strict accepts their alignment.  Usage: guest/dev/tp-format.py FILE (in place).
# Reformat TRACE_EVENT-style blocks so checkpatch --strict's paren
# alignment checks pass.  Usage: tp.py FILE (in place)
import re, sys
p = sys.argv[1]
s = open(p).read()

def ind(col):
    return '\t' * (col // 8) + ' ' * (col % 8)

def split_top(body):
    # split "A(...), B(...)" at top-level commas
    out, depth, cur, instr = [], 0, '', False
    i = 0
    while i < len(body):
        c = body[i]
        if instr:
            cur += c
            if c == '\\':
                cur += body[i + 1]; i += 1
            elif c == '"':
                instr = False
        elif c == '"':
            instr = True; cur += c
        elif c in '([':
            depth += 1; cur += c
        elif c in ')]':
            depth -= 1; cur += c
        elif c == ',' and depth == 0:
            out.append(cur.strip()); cur = ''
        else:
            cur += c
        i += 1
    if cur.strip():
        out.append(cur.strip())
    return out

def fmt_macro(part, col):
    # part like "TP_PROTO(a, b)" -> lines starting at column col
    m = re.match(r'(\w+)\((.*)\)$', part, re.S)
    name, inner = m.group(1), m.group(2)
    c2 = col + len(name) + 1
    if name in ('TP_STRUCT__entry', 'TP_fast_assign'):
        items = [x.strip() for x in inner.strip().split('\n') if x.strip()]
        items[-1] += ')'
        lines = []
        for k, it in enumerate(items):
            pre = name + '(' if k == 0 else ind(c2)
            first = col if k == 0 else 0
            line = pre + it
            elen = len((ind(first) + line).expandtabs(8))
            if elen > 100:
                cut = line.rfind(', ', 0, len(line) - (elen - 96))
                inner = line.index('(', len(pre)) + 1
                icol = len((ind(first) + line[:inner]).expandtabs(8))
                lines.append(line[:cut + 1])
                lines.append(ind(icol) + line[cut + 2:])
            else:
                lines.append(line)
        return lines
    args = split_top(' '.join(inner.split()))
    lines, cur = [], name + '('
    first = True
    for i, a in enumerate(args):
        piece = a + (', ' if i < len(args) - 1 else '')
        lead = ind(col) if first else ''
        if not cur.endswith('(') and len((lead + cur + piece).rstrip().expandtabs(8)) > 90:
            lines.append(cur.rstrip())
            cur = ind(c2)
            first = False
        cur += piece
    lines.append(cur.rstrip() + ')')
    return lines

def fmt_block(m):
    head, name, body = m.group(1), m.group(2), m.group(3)
    col = len(head) + 1
    parts = split_top(body)
    out = [head + '(' + name + ',']
    for i, part in enumerate(parts):
        ls = fmt_macro(part, col)
        ls[0] = ind(col) + ls[0]
        if i < len(parts) - 1:
            ls[-1] += ','
        out += ls
    out.append(');')
    return '\n'.join(out)

s = re.sub(r'^(TRACE_EVENT_RCU_POLL)\((\w+),\n(.*?)\n\);', fmt_block, s, flags=re.S | re.M)
open(p, 'w').write(s)
