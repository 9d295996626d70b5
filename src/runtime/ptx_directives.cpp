// ptx_directives.cpp — see ptx_directives.hpp.
#include "runtime/ptx_directives.hpp"

namespace clgemm::detail {

bool is_ptx(const std::string& binary) {
  // NVIDIA's PTX opens with comment lines, then .version and .target.
  const size_t head = binary.find_first_not_of(" \t\r\n");
  return head != std::string::npos && binary.compare(head, 2, "//") == 0 &&
         binary.find(".version") != std::string::npos && binary.find(".target") != std::string::npos &&
         binary.find(".entry") != std::string::npos;
}

namespace {

// Removes every line of `header` that starts (after blanks) with `directive`.
std::string without_directive(const std::string& header, const std::string& directive) {
  std::string out;
  size_t pos = 0;
  while (pos < header.size()) {
    size_t end = header.find('\n', pos);
    end = end == std::string::npos ? header.size() : end + 1;
    const std::string line = header.substr(pos, end - pos);
    const size_t text = line.find_first_not_of(" \t");
    if (text == std::string::npos || line.compare(text, directive.size(), directive) != 0) out += line;
    pos = end;
  }
  return out;
}

}  // namespace

std::optional<std::string> with_min_blocks_per_sm(const std::string& ptx, unsigned blocks) {
  if (blocks == 0) return std::nullopt;
  std::string out;
  size_t pos = 0;
  bool patched = false;
  for (size_t entry = ptx.find(".entry", pos); entry != std::string::npos; entry = ptx.find(".entry", pos)) {
    // The directives of an entry sit between its parameter list and the "{" that opens its body.
    const size_t params = ptx.find('(', entry);
    const size_t close = params == std::string::npos ? std::string::npos : ptx.find(')', params);
    const size_t body = close == std::string::npos ? std::string::npos : ptx.find('{', close);
    if (body == std::string::npos) break;
    std::string header = ptx.substr(close + 1, body - close - 1);
    out += ptx.substr(pos, close + 1 - pos);
    if (header.find(".reqntid") != std::string::npos || header.find(".maxntid") != std::string::npos) {
      header = without_directive(header, ".minnctapersm");
      if (!header.empty() && header.back() != '\n') header += '\n';
      header += ".minnctapersm " + std::to_string(blocks) + "\n";
      patched = true;
    }
    out += header;
    pos = body;
  }
  if (!patched) return std::nullopt;
  out += ptx.substr(pos);
  return out;
}

}  // namespace clgemm::detail
