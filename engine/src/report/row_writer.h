// The rows of a report as text: one writer per format (csv, json, table),
// used by every report that prints rows — the batch report of report.h (and
// so `logagg merge` and --state), and --follow's FollowWriter — so a column
// is defined once for all of them.
//
// A row is a bucket start, the row's keys (the app id with --by-app), a
// count, its measures' columns (measure_text.h) and, for --follow, whether it corrects a row written before. Each key is
// shown through a cell: the key's text as the format writes it (csv quoted,
// json escaped, table made terminal-safe and aligned), made once per distinct
// key by key_cell() and handed back to row() for each row that has it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/report.h"
#include "report/measure_text.h"
#include "report/report_output.h"
#include "report/report_rows.h"

namespace logagg {

struct RowSettings {
  Format format = Format::kTable;  // csv, json or table
  Bucketing bucketing;             // names the bucket column and sets the table's start width
  std::vector<std::string> key_columns;  // the key columns' names, in order ("app_id" with --by-app)
  bool csv_neutralise_formulas = false;  // ReportOptions::csv_neutralise_formulas
  // Rows written as they come (--follow): json as one object a line (NDJSON),
  // a table with the counts 10 wide and the keys last, unpadded, so that any
  // key keeps the columns aligned. Otherwise (the batch report) json rows are
  // the document's "counts" array (its header and footer open and close it),
  // and a table's count column is as wide as `widest_count` and each key
  // column as the widest cell made for it before the header is written.
  bool stream = false;
  uint64_t widest_count = 0;  // table, not streamed
  // With measures: their columns after count, and for the table each
  // column's widest value (measure_text.h).
  const MeasureText* measures = nullptr;
  std::vector<size_t> measure_widths;
};

// A key as a row shows it: its text, and the terminal columns that text
// takes (a table's; the padding that aligns it is added as each row is
// written, so a wide key costs its width once, not once per key).
struct KeyCell {
  std::string text;
  size_t columns = 0;
};

class RowWriter {
 public:
  virtual ~RowWriter() = default;
  // The cell of `key` in key column `column`. kOtherApp is the "(other)" of
  // keys not told apart; a key spelt "(other)" is a real one (json says so).
  virtual KeyCell key_cell(size_t column, std::string_view key) = 0;
  // The text before the first row: csv "COLUMN[,KEY...],count"; the table's
  // column names; json's opening of the "counts" array (nothing streamed).
  virtual void header(std::string& out) = 0;
  // One row, its bucket start as text, its key cells in column order, its
  // count and its measures (nullptr: none, or an empty bucket's row).
  virtual void row(std::string& out, std::string_view start, std::span<const KeyCell* const> cells,
                   uint64_t count, const MeasureCell* measures, bool correction) = 0;
  // The text after the last row: the table's total line; json's closing of
  // the "counts" array (nothing streamed); nothing for csv.
  virtual void footer(std::string& out, uint64_t total) = 0;
};

// The writer of `settings.format` (not html).
std::unique_ptr<RowWriter> make_row_writer(const RowSettings& settings);

// The batch report's rows in `report.format` (csv or table: the whole text;
// json: the "counts" array), each key's cell made once; `counted` is the
// total line's count; `measures` the measures' columns (nullptr or empty: none).
void write_report_rows(const ReportRows& rows, const ReportOptions& report, uint64_t counted,
                       const MeasureSpec* measures, Output& out);

}  // namespace logagg
