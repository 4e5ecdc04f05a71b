// The --format html page's own script (html_report.cc inlines it after uPlot's):
// reads the JSON after the tables (html_report.cc, write_data) and draws it with
// uPlot; measures as dashed lines on axes of their own at the right. Stacked series are drawn as cumulative bands without lines, and "total"
// (the top edge) only in the legend; the legend shows each series' own count at
// the hovered bucket. Strings from the JSON (app ids, the zone) reach the page
// only as text (textContent, uPlot's labels): never as markup.
// For tests: window.logaggChart is the uPlot instance, and after the first draw
// body[data-points] is the number of points drawn (buckets, or sums of
// buckets_per_point of them), body[data-render-ms] the time from creating the
// chart to its first draw and body[data-ready-ms] the time from the start of
// loading the page to it.
"use strict";
(() => {
  const report = JSON.parse(document.getElementById("logagg-data").textContent);
  const chart = document.getElementById("chart");
  const n = report.x.length;
  if (n === 0) {
    const empty = chart.appendChild(document.createElement("p"));
    empty.className = "empty";
    empty.textContent = "Nothing was counted.";
    document.body.dataset.points = "0";
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
  const ys = report.y;
  const own = y => (u, v, s, i) => i == null ? "--" : count.format(y[i]);
  const series = [{label: `${report.bucket} (${zone})`, value: (u, t) => t == null ? "--" : bucketLabel(t)}];
  report.names.forEach((name, k) => {
    const color = palette[k % palette.length];
    series.push(report.stacked ? {label: name, stroke: color, width: 0, fill: color + "c0", value: own(ys[k])}
                               : {label: name, stroke: color, width: 1, fill: color + "30", value: own(ys[k])});
  });
  // Measures (report.m): a line each after the counts, on an axis at the
  // right per kind (a ratio in %, a field's values in its unit), never stacked.
  const measures = report.m || [];
  const durations = {s: 1, ms: 1e-3, "µs": 1e-6, ns: 1e-9};
  const measureText = (unit, v) => {
    if (v == null) return "--";
    if (unit === "ratio") return `${(v * 100).toFixed(2)}%`;
    if (!(unit in durations) || v === 0) return unit ? `${compact.format(v)} ${unit}` : compact.format(v);
    const seconds = v * durations[unit];
    const [name, scale] = Object.entries(durations).find(([, f]) => Math.abs(seconds) >= f * 0.9995) || ["ns", 1e-9];
    const x = seconds / scale;  // 3 significant digits, or the whole seconds
    const digits = Math.abs(x) >= 1000 ? String(Math.round(x)) : x.toPrecision(3).replace(/\.0+$|(\.\d*?)0+$/, "$1");
    return `${digits} ${name}`;
  };
  const measureData = measures.map(m => m.v);
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
  const total = new Float64Array(report.stacked ? n : 0);
  if (report.stacked) {
    for (const y of ys) for (let i = 0; i < n; i++) total[i] += y[i];
    const s = stack(null);
    series.push({label: "total", stroke: "#1f2328", paths: () => null, value: own(total)});
    data = [report.x].concat(s.stacked, [total]);
    bands = s.bands;
  }
  // The measures' series and data after the counts' (and "total").
  const axes = [];
  measures.forEach((m, k) => {
    if (!axes.some(a => a.scale === m.axis)) {
      axes.push({scale: m.axis, side: 1, size: 70, grid: {show: false},
                 values: (u, splits) => splits.map(v => measureText(m.unit, v))});
    }
    series.push({label: m.name, scale: m.axis, stroke: palette[(report.names.length + k) % palette.length],
                 width: 2, dash: [6, 3], value: (u, v) => measureText(m.unit, v)});
  });
  data = data.concat(measureData);
  const restack = u => {
    const s = stack(u);
    u.delBand(null);
    s.bands.forEach(b => u.addBand(b));
    u.setData([report.x].concat(s.stacked, [total], measureData));
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
  const width = () => chart.clientWidth;
  let started = 0;
  const opts = {
    width: width(),
    height: 450,
    padding: [null, axes.length > 0 ? 10 : 40, null, null],  // room for the last time label's date
    series,
    bands,
    tzDate: t => uPlot.tzDate(new Date(t * 1e3), zone),
    scales: {y: {range: (u, min, max) => [0, uPlot.rangeNum(0, Math.max(max, 1), 0.1, true)[1]]}},
    axes: [{values: timeTicks},
           {size: 60, values: (u, splits) => splits.map(v => v < 1e4 ? count.format(v) : compact.format(v))}]
        .concat(axes),
    cursor: {drag: {x: true, y: false}},
    hooks: {
      draw: [u => {
        if (document.body.dataset.points) return;
        document.body.dataset.renderMs = (performance.now() - started).toFixed(1);
        document.body.dataset.readyMs = performance.now().toFixed(1);
        document.body.dataset.points = String(u.data[0].length);
      }],
      setSeries: report.stacked ? [restack] : [],
    },
  };
  started = performance.now();
  const u = new uPlot(opts, data, chart);
  window.logaggChart = u;
  window.addEventListener("resize", () => u.setSize({width: width(), height: 450}));
})();
