// naive_split: the read-lines/write-lines splitter that split_bench.sh compares
// `logagg split` with, written the obvious way: std::getline into a string,
// std::ofstream out, a new chunk when the next line would not fit. Every byte
// goes through user space twice. It round-trips (a last line without LF stays
// without one) but has no error handling beyond its exit status.
//   naive_split MAX_BYTES INPUT OUTDIR  ->  OUTDIR/part-00000, part-00001, ...
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 4 || std::atoll(argv[1]) < 1) {
    std::fprintf(stderr, "usage: naive_split MAX_BYTES INPUT OUTDIR\n");
    return 2;
  }
  const auto max_bytes = static_cast<size_t>(std::atoll(argv[1]));
  std::ifstream in(argv[2], std::ios::binary);
  if (!in) return 1;
  std::ofstream out;
  size_t chunks = 0, used = 0;
  std::string line;
  while (std::getline(in, line)) {
    const bool has_lf = !in.eof();
    const size_t bytes = line.size() + (has_lf ? 1 : 0);
    if (!out.is_open() || used + bytes > max_bytes) {
      if (out.is_open()) out.close();
      char name[32];
      std::snprintf(name, sizeof name, "/part-%05zu", chunks++);
      out.open(std::string(argv[3]) + name, std::ios::binary | std::ios::trunc);
      if (!out) return 1;
      used = 0;
    }
    out << line;
    if (has_lf) out << '\n';
    used += bytes;
  }
  out.close();
  return in.bad() || !out ? 1 : 0;
}
