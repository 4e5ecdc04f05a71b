// The --format html page's own script (html_report.cc inlines it after uPlot's):
// reads the JSON after the tables (html_report.cc, write_data) and draws it with
// uPlot: the counts' chart (stacked series as cumulative bands without lines,
// "total", the top edge, only in the legend; the legend shows each series' own
// count at the hovered bucket), then a panel per quantity measured (report.panels),
// each a chart with its own labelled axes. The charts share the time axis: a
// zoom in one zooms them all, and the hovered bucket is shown in each. With keys,
// a selector shows one key's measures in the panels ("all keys" first); a click
// on a column's name sorts the table of keys. Strings from the JSON (keys, the
// zone, expressions) reach the page only as text (textContent, uPlot's labels):
// never as markup.
// For tests: window.logaggChart is the counts' uPlot instance and
// window.logaggPanels the panels' (in order); after the first draw
// body[data-points] is the number of points drawn (buckets, or sums of
// buckets_per_point of them), body[data-render-ms] the time from creating the
// chart to its first draw and body[data-ready-ms] the time from the start of
// loading the page to it; body[data-drawn-ms] the time from the start of
// loading to every chart drawn (the panels too); body[data-key] the key whose
// measures are shown. A live page (report.live: served by --follow --serve)
// follows its event stream (see "Live" at the end); body[data-live-last] is
// the start of the last bucket it has, body[data-live-events] the events
// merged.
"use strict";
(() => {
  const report = JSON.parse(document.getElementById("logagg-data").textContent);
  const chart = document.getElementById("chart");
  let n = report.x.length;
  const durations = {s: 1, ms: 1e-3, "µs": 1e-6, ns: 1e-9};
  // A click on a column's name sorts the rows by it, the largest first, then
  // the smallest first: numbers by value (a duration in any unit by its
  // length; a cell is a number only if all of it is: "10.1.2.3" is text),
  // then text in code point order, "-" last.
  const sortable = table => {
    if (!table) return;
    const head = table.rows[0];
    const value = text => {
      const d = /^(-?[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?) (s|ms|µs|ns)$/.exec(text);
      if (d) return parseFloat(d[1]) * durations[d[2]];
      return /^-?[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?%?$/.test(text) ? parseFloat(text) : null;
    };
    [...head.cells].forEach((th, c) => {
      th.classList.add("sortable");
      th.tabIndex = 0;
      const sort = () => {
        const down = th.dataset.sort !== "down";
        for (const other of head.cells) delete other.dataset.sort;
        th.dataset.sort = down ? "down" : "up";
        const rows = [...table.rows].slice(1).map(r => [r, r.cells[c].textContent]).map(([r, t]) => [r, t, value(t)]);
        const order = (a, b) => {
          if ((a[1] === "-") !== (b[1] === "-")) return a[1] === "-" ? 1 : -1;
          if ((a[2] === null) !== (b[2] === null)) return a[2] === null ? 1 : -1;
          const by = a[2] !== null && a[2] !== b[2] ? a[2] - b[2] : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
          return down ? -by : by;
        };
        rows.sort(order);
        head.parentNode.append(...rows.map(r => r[0]));
      };
      th.addEventListener("click", sort);
      th.addEventListener("keydown", e => { if (e.key === "Enter") sort(); });
    });
  };
  sortable(document.getElementById("keys"));
  if (n === 0) {
    const empty = chart.appendChild(document.createElement("p"));
    empty.className = "empty";
    empty.textContent = report.live ? "Nothing was counted yet: the page draws the first bucket when it completes."
                                    : "Nothing was counted.";
    document.body.dataset.points = "0";
    if (report.live) {  // reloaded when the first bucket comes, or (10 s on) when the stream ends
      const events = new EventSource(report.live.events);
      events.onmessage = () => location.reload();
      events.onerror = () => events.readyState === EventSource.CLOSED && setTimeout(() => location.reload(), 10000);
    }
    return;
  }
  let zone = report.zone;
  try {
    new Intl.DateTimeFormat("en-US", {timeZone: zone});
  } catch (e) {
    let notes = document.getElementById("notes");
    if (!notes) {
      notes = document.createElement("ul");
      notes.className = "notes";
      notes.id = "notes";
      chart.before(notes);
    }
    notes.appendChild(document.createElement("li")).textContent =
        `This browser does not know the time zone ${zone}: times are shown in UTC.`;
    zone = "UTC";
  }
  const dateParts = new Intl.DateTimeFormat("en-US", {timeZone: zone, hourCycle: "h23", year: "numeric",
      month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit"});
  const bucketLabel = t => {
    const p = {};
    for (const {type, value} of dateParts.formatToParts(new Date(t * 1e3))) p[type] = value;
    return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
  };
  const count = new Intl.NumberFormat("en-US");
  const compact = new Intl.NumberFormat("en-US", {notation: "compact", maximumFractionDigits: 1});
  const palette = ["#4269d0", "#efb118", "#ff725c", "#6cc5b0", "#3ca951", "#ff8ab7",
                   "#a463f2", "#97bbf5", "#9c6b4e", "#9498a0", "#d4a6c8", "#7d8f31"];
  const counts = (u, splits) => splits.map(v => v < 1e4 ? count.format(v) : compact.format(v));
  // A measure's value in its unit: a ratio in %, a duration in the largest
  // unit it fills (3 significant digits), anything else compact.
  const measureText = (unit, v) => {
    if (v == null) return "--";
    if (unit === "ratio") return `${(v * 100).toFixed(2)}%`;
    if (!(unit in durations) || v === 0) return unit ? `${compact.format(v)} ${unit}` : compact.format(v);
    const seconds = v * durations[unit];
    const [name, scale] = Object.entries(durations).find(([, f]) => Math.abs(seconds) >= f * 0.9995) || ["ns", 1e-9];
    const x = seconds / scale;  // 3 significant digits, or the whole seconds
    const digits = Math.abs(x) >= 1e6    ? x.toPrecision(3)
                   : Math.abs(x) >= 1000 ? String(Math.round(x))
                                         : x.toPrecision(3).replace(/\.0+$|(\.\d*?)0+$/, "$1");
    return `${digits} ${name}`;
  };
  // Time axis labels, 24-hour and year-month-day; columns as in uPlot's
  // default: smallest tick step (s), label, then labels where the year, month,
  // day, hour, minute or second rolls over (appended: mode 1).
  const ymd = "\n{YYYY}-{MM}-{DD}";
  const timeTicks = [
    [365 * 86400, "{YYYY}", null, null, null, null, null, null, 1],
    [28 * 86400, "{YYYY}-{MM}", null, null, null, null, null, null, 1],
    [86400, "{MM}-{DD}", "\n{YYYY}", null, null, null, null, null, 1],
    [60, "{HH}:{mm}", ymd, null, ymd, null, null, null, 1],
    [1, "{HH}:{mm}:{ss}", ymd, null, ymd, null, null, null, 1],
  ];
  // Time ticks at least a second apart (no bucket is shorter), else uPlot
  // would label half seconds on a short span.
  const day = 86400;
  const timeIncrs = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, day,
                     2 * day, 7 * day, 14 * day, 28 * day, 91 * day, 182 * day, 365 * day, 730 * day, 1826 * day];
  const timeAxis = {values: timeTicks, incrs: timeIncrs};
  const timeSeries = () => ({label: `${report.bucket} (${zone})`, value: (u, t) => t == null ? "--" : bucketLabel(t)});
  const width = () => chart.clientWidth;
  // Every chart of the page, the counts' first: a zoom in one is made in all.
  // Their plots line up: each leaves room at the right for a right axis
  // (size and label) if any panel has one, else for the last time label.
  const rightAxis = 70, labelSize = 30;
  const rightRoom = (report.panels || []).some(p => p.right) ? 10 + rightAxis + labelSize : 40;
  const charts = [];
  let zooming = false;
  const zoomTogether = (u, key) => {
    if (key !== "x" || zooming) return;
    zooming = true;
    for (const other of charts) if (other !== u) other.setScale("x", {min: u.scales.x.min, max: u.scales.x.max});
    zooming = false;
  };
  // body[data-drawn-ms]: when the last chart of the page has drawn once.
  const drawnCharts = new Set();
  const drawnOnce = u => {
    drawnCharts.add(u);
    if (drawnCharts.size === 1 + (report.panels || []).length && !document.body.dataset.drawnMs) {
      document.body.dataset.drawnMs = performance.now().toFixed(1);
    }
  };
  // A double click zooms every chart out to the whole report (a key's
  // points, when binned, end before the last bucket).
  const zoomOut = () => () => {
    for (const c of charts) c.setScale("x", {min: report.x[0], max: report.x[n - 1]});
    return null;
  };
  const options = (height, extra) => Object.assign({
    width: width(),
    height,
    tzDate: t => uPlot.tzDate(new Date(t * 1e3), zone),
    cursor: {drag: {x: true, y: false}, sync: {key: "logagg"}, bind: {dblclick: zoomOut}},
  }, extra, {hooks: Object.assign({}, extra.hooks, {setScale: [zoomTogether],
                                                     draw: [drawnOnce].concat((extra.hooks || {}).draw || [])})});

  // The counts.
  const ys = report.y;
  const own = y => (u, v, s, i) => i == null ? "--" : count.format(y[i]);
  const series = [timeSeries()];
  report.names.forEach((name, k) => {
    const color = palette[k % palette.length];
    series.push(report.stacked ? {label: name, stroke: color, width: 0, fill: color + "c0", value: own(ys[k])}
                               : {label: name, stroke: color, width: 1, fill: color + "30", value: own(ys[k])});
  });
  // Each shown series is drawn as the sum of itself and the shown ones before
  // it, filled down to the previous one (a band); hidden ones keep their data.
  const stack = u => {
    const sum = new Float64Array(n);
    const stacked = [];
    const bands = [];
    let below = 0;
    ys.forEach((y, k) => {
      if (u && !u.series[1 + k].show) return stacked.push(y);
      const top = new Float64Array(n);
      for (let i = 0; i < n; i++) top[i] = sum[i] += y[i];
      stacked.push(top);
      if (below > 0) bands.push({series: [1 + k, below], fill: series[1 + k].fill});
      below = 1 + k;
    });
    return {stacked, bands};
  };
  let data = [report.x].concat(ys);
  let bands = [];
  let total = [];
  const addTotal = () => {
    total = new Float64Array(n);
    for (const y of ys) for (let i = 0; i < n; i++) total[i] += y[i];
  };
  if (report.stacked) {
    addTotal();
    const s = stack(null);
    series.push({label: "total", stroke: "#1f2328", paths: () => null, value: (u, v, s, i) => i == null ? "--" : count.format(total[i])});
    data = [report.x].concat(s.stacked, [total]);
    bands = s.bands;
  }
  const restack = u => {
    const s = stack(u);
    u.delBand(null);
    s.bands.forEach(b => u.addBand(b));
    u.setData([report.x].concat(s.stacked, [total]));
  };
  let started = 0;
  const countHeight = report.panels ? 360 : 450;
  const countOptions = options(countHeight, {
    padding: [null, rightRoom, null, null],
    series,
    bands,
    scales: {y: {range: (u, min, max) => [0, uPlot.rangeNum(0, Math.max(max, 1), 0.1, true)[1]]}},
    axes: [timeAxis, {size: 70, labelSize, label: report.count_axis, values: counts}],
    hooks: {
      draw: [u => {
        if (document.body.dataset.points) return;
        document.body.dataset.renderMs = (performance.now() - started).toFixed(1);
        document.body.dataset.readyMs = performance.now().toFixed(1);
        document.body.dataset.points = String(u.data[0].length);
      }],
      setSeries: report.stacked ? [restack] : [],
    },
  });
  started = performance.now();
  const u = new uPlot(countOptions, data, chart);
  charts.push(u);
  window.logaggChart = u;

  // The panels: each measure a line of its panel, on the left axis (counts,
  // percentiles, sums) or the right (ratios, dashed). A value with no value
  // on either side (a ratio or quantile between buckets without lines)
  // draws as a point, which a line alone would not show.
  const isolated = (u, i, show) => {
    if (show) return null;
    const d = u.data[i], out = [];
    for (let j = 0; j < d.length; j++) {
      if (d[j] != null && (j === 0 || d[j - 1] == null) && (j + 1 === d.length || d[j + 1] == null)) out.push(j);
    }
    return out;
  };
  const measures = report.m || [];
  const panels = (report.panels || []).map((p, i) => {
    const drawn = measures.flatMap((m, j) => m.panel === i ? [j] : []);
    const section = document.getElementById("panels").appendChild(document.createElement("section"));
    section.className = "panel";
    const heading = section.appendChild(document.createElement("h2"));
    const box = section.appendChild(document.createElement("div"));
    const unitOf = right => (measures[drawn.find(j => measures[j].right === right)] || {}).unit;
    const axes = [timeAxis,
                  {scale: "left", size: 70, labelSize, label: p.left, values: (u, s) => s.map(v => measureText(unitOf(false), v))}];
    const scales = {left: {}};
    if (p.right) {
      axes.push({scale: "right", side: 1, size: rightAxis, labelSize, label: p.right, grid: {show: false},
                 values: (u, s) => s.map(v => measureText(unitOf(true), v))});
      scales.right = {range: (u, min, max) => [0, Math.max(max, 1e-9) * 1.1]};
    }
    const lines = drawn.map((j, k) => {
      const m = measures[j];
      const line = {label: m.name, scale: m.right ? "right" : "left", stroke: palette[k % palette.length],
                    width: m.right ? 1.5 : 2, points: {filter: isolated}, value: (u, v) => measureText(m.unit, v)};
      return m.right ? Object.assign(line, {dash: [6, 3]}) : line;
    });
    const chartOfPanel = new uPlot(options(220, {padding: [null, p.right ? 10 : rightRoom, null, null],
                                                 series: [timeSeries()].concat(lines), axes, scales}),
                                   [report.x].concat(drawn.map(j => measures[j].v)), box);
    charts.push(chartOfPanel);
    return {u: chartOfPanel, heading, title: p.title, drawn};
  });
  window.logaggPanels = panels.map(p => p.u);
  // The panels show the measures of all keys, or of the key chosen.
  let shown = -1;
  const showKey = (k, force) => {
    const keyed = k >= 0, change = force || k !== shown;
    shown = k;
    document.body.dataset.key = keyed ? report.names[k] : "";
    const {min, max} = u.scales.x;
    for (const p of panels) {
      p.heading.textContent = `${p.title}, ${keyed ? "key " + report.names[k] : "all keys"}`;
      if (!change) continue;
      p.u.setData([keyed ? report.k.x : report.x].concat(p.drawn.map(j => keyed ? report.k.v[k][j] : measures[j].v)));
      p.u.setScale("x", {min, max});
    }
  };
  if (report.k && panels.length > 0) {
    const label = document.createElement("label");
    label.id = "key-choice";
    label.textContent = "Measures of ";
    const select = label.appendChild(document.createElement("select"));
    select.id = "key";
    select.appendChild(document.createElement("option")).textContent = "all keys";
    for (const name of report.names) select.appendChild(document.createElement("option")).textContent = name;
    select.addEventListener("change", () => showKey(select.selectedIndex - 1));
    document.getElementById("panels").prepend(label);
  }
  showKey(-1);
  window.addEventListener("resize", () => {
    for (const c of charts) c.setSize({width: width(), height: c === u ? countHeight : 220});
  });

  // Live: each event is a document of report's shape for the buckets a round
  // changed, the busiest keys of them named. Its points replace the page's at
  // the same start, or come after the last (the page keeps the last
  // report.live.points). Keys the page does not stack are added up in
  // "(other)", whose measures are not known for such points (left out). The
  // page reloads (at most once every 10 s after it loaded, saying why) for a
  // key it has no place for, a document it cannot merge ({"reload": true}),
  // events it missed (a "gap"), another run's events (logagg restarted: the
  // ids' run differs), or a stream the server refused (a dropped one the
  // browser reconnects by itself). A view that
  // shows every point keeps showing them all; one zoomed to the newest
  // buckets moves with them; one zoomed to older buckets stays.
  if (!report.live) return;
  const names = new Map(report.names.map((name, k) => [name, k]));
  const other = names.get("(other)");
  let reloading = false;
  const reload = why => {
    if (reloading) return;
    reloading = true;
    const note = document.createElement("p");
    note.className = "notes";
    note.textContent = `Reloading the page: ${why}.`;
    chart.before(note);
    setTimeout(() => location.reload(), Math.max(0, 10000 - performance.now()));
  };
  const keyValues = report.k ? report.k.v : [];
  // Every array with a value per point: the counts, the measures, each key's.
  const perPoint = () => [report.x, ...ys, ...measures.map(m => m.v), ...(report.k ? [report.k.x] : []),
                          ...keyValues.flat()];
  // The point of bucket `start`: the page's, or a new one after the last;
  // -1 for one before the first or between two (not the page's).
  const at = start => {
    let lo = 0, hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (report.x[mid] < start) lo = mid + 1; else hi = mid;
    }
    if (lo < n) return report.x[lo] === start ? lo : -1;
    for (const a of perPoint()) a.push(a === report.x || a === (report.k || {}).x ? start : null);
    for (const y of ys) y[n] = 0;
    return n++;
  };
  const merge = d => {
    if (d.reload) return reload("a change the page cannot draw in place");
    d.x.forEach((start, i) => {
      const p = at(start);
      if (p < 0) return;
      let rest = 0;
      for (const y of ys) y[p] = 0;
      d.names.forEach((name, s) => {
        const k = names.get(name);
        if (k === undefined || k === other) {
          rest += d.y[s][i];
          return;
        }
        ys[k][p] = d.y[s][i];
        if (d.k) keyValues[k].forEach((v, j) => { v[p] = d.k.v[s][j][i]; });
      });
      if (other !== undefined) {
        ys[other][p] = rest;
        keyValues[other]?.forEach(v => { v[p] = null; });
      } else if (rest > 0) {
        reload("a new key");
      }
      measures.forEach((m, j) => { m.v[p] = d.m[j].v[i]; });
    });
    const past = n - report.live.points;
    if (past > 0) {
      for (const a of perPoint()) a.splice(0, past);
      n -= past;
    }
  };
  const subtitle = document.querySelector(".subtitle").firstChild;
  // Draws the points merged, the view as it was (min, max; lastBefore: the
  // newest bucket then) kept as said above.
  const redraw = (min, max, lastBefore) => {
    if (report.stacked) {
      addTotal();
      restack(u);
    } else {
      u.setData([report.x].concat(ys));  // the view: every point
    }
    showKey(shown, true);
    const all = min <= report.x[0] && max >= lastBefore;
    const last = report.x[n - 1];
    const view = all ? null : max >= lastBefore ? {min: min + last - lastBefore, max: last} : max >= report.x[0] ? {min, max} : null;
    if (view) for (const c of charts) c.setScale("x", view);
    document.body.dataset.liveLast = String(last);
    subtitle.textContent = subtitle.textContent.replace(/^[0-9,]+ buckets?/, n === 1 ? "1 bucket" : `${count.format(n)} buckets`);
  };
  let merged = 0;
  const run = (/after=([0-9]+)\./.exec(report.live.events) || [])[1];
  const events = new EventSource(report.live.events);
  events.addEventListener("gap", () => reload("it missed changes the server no longer keeps"));
  events.onerror = () => {
    if (events.readyState === EventSource.CLOSED) reload("the server refused its stream");
  };
  events.onmessage = e => {
    if (run && !e.lastEventId.startsWith(run + ".")) return reload("logagg was restarted");
    const {min, max} = u.scales.x;
    const lastBefore = report.x[n - 1];
    merge(JSON.parse(e.data));
    redraw(min, max, lastBefore);
    document.body.dataset.liveEvents = String(++merged);
  };
  document.body.dataset.liveLast = String(report.x[n - 1]);
})();
