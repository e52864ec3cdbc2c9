import { readFileSync } from 'node:fs'
export function smaps() {
  const text = readFileSync('/proc/self/smaps', 'utf8').split('\n')
  const out = []; let cur = null
  for (const line of text) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line)
    if (m) { cur = { range: m[1], perms: m[3], name: m[4] || '[anon]', rss: 0, anon: 0, size: (parseInt(m[2],16)-parseInt(m[1],16))/1024 }; out.push(cur); continue }
    const r = /^Rss:\s+(\d+)/.exec(line); if (r && cur) cur.rss = +r[1]
    const a = /^Anonymous:\s+(\d+)/.exec(line); if (a && cur) cur.anon = +a[1]
  }
  const byName = {}
  for (const e of out) { const k = e.name.replace(/.*node_modules\//, 'nm/'); byName[k] = (byName[k] || 0) + e.rss }
  const big = out.filter((e) => e.name === '[anon]' || e.name.startsWith('[')).sort((a, b) => b.rss - a.rss).slice(0, 25).map((e) => `${e.name} ${e.perms} size ${(e.size/1024).toFixed(1)}M rss ${(e.rss/1024).toFixed(1)}M`)
  return { byName: Object.entries(byName).sort((a, b) => b[1] - a[1]).slice(0, 15).map(([k, v]) => `${k} ${(v/1024).toFixed(1)}M`), big }
}
