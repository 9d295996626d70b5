// ptx_markers.cpp — see ptx_markers.hpp.
#include "runtime/ptx_markers.hpp"

#include <clgemm/error.hpp>

#include <cctype>
#include <cstdlib>
#include <sstream>

namespace clgemm::detail {
namespace {

constexpr const char* kMarker = "// PATCH:";

[[noreturn]] void refuse(const std::string& why) { throw Error(Status::BuildFailure, "patching PTX: " + why); }

// The line of `text` that starts (after blanks) with `directive`: [begin, end) without its newline.
bool find_directive(const std::string& text, const std::string& directive, size_t& begin, size_t& end) {
  for (size_t pos = 0; pos < text.size();) {
    size_t stop = text.find('\n', pos);
    if (stop == std::string::npos) stop = text.size();
    const size_t first = text.find_first_not_of(" \t", pos);
    if (first < stop && text.compare(first, directive.size(), directive) == 0 &&
        (first + directive.size() == stop || std::isspace(static_cast<unsigned char>(text[first + directive.size()])))) {
      begin = first;
      end = stop;
      return true;
    }
    pos = stop + 1;
  }
  return false;
}

// "sm_90a" → "sm_90": the architecture an "a" (architecture-specific) target extends.
std::string family(const std::string& target) {
  std::string f = target;
  if (!f.empty() && (f.back() == 'a' || f.back() == 'f')) f.pop_back();
  return f;
}

std::string fill(const PtxMarkerRule& rule, const std::vector<std::string>& operands) {
  std::string out;
  for (size_t i = 0; i < rule.body.size(); ++i) {
    if (rule.body[i] == '{' && i + 1 < rule.body.size() && std::isdigit(static_cast<unsigned char>(rule.body[i + 1]))) {
      size_t j = i + 1, index = 0;
      while (j < rule.body.size() && std::isdigit(static_cast<unsigned char>(rule.body[j])))
        index = index * 10 + size_t(rule.body[j++] - '0');
      if (j < rule.body.size() && rule.body[j] == '}') {
        if (index >= operands.size())
          refuse("rule '" + rule.name + "' uses operand {" + std::to_string(index) + "} of " +
                 std::to_string(operands.size()));
        out += operands[index];
        i = j;
        continue;
      }
    }
    out += rule.body[i];
  }
  return out;
}

}  // namespace

PatchedPtx patch_ptx_markers(const std::string& ptx, const std::vector<PtxMarkerRule>& rules, const std::string& target) {
  size_t begin = 0, end = 0;
  if (!find_directive(ptx, ".version", begin, end)) refuse("no .version line");
  const int major = std::atoi(ptx.c_str() + begin + 8);
  if (major < 8) refuse("PTX ISA " + ptx.substr(begin + 9, end - begin - 9) + " is older than 8.0, the first with wgmma");
  if (!find_directive(ptx, ".target", begin, end)) refuse("no .target line");
  std::istringstream words(ptx.substr(begin + 7, end - begin - 7));
  std::string current;
  words >> current;
  if (!current.empty() && current.back() == ',') current.pop_back();
  if (family(current) != family(target)) refuse("the PTX targets " + current + ", not " + family(target));

  PatchedPtx out;
  // The target line as the tested path writes it: the architecture alone.
  out.ptx = ptx.substr(0, begin) + ".target " + target;
  for (size_t pos = end; pos < ptx.size();) {
    size_t stop = ptx.find('\n', pos + 1);
    stop = stop == std::string::npos ? ptx.size() : stop;
    const size_t at = ptx.find(kMarker, pos);
    if (at == std::string::npos || at >= stop) {
      out.ptx.append(ptx, pos, stop - pos);
      pos = stop;
      continue;
    }
    // A marker: its name and operands up to the end of the line.
    const size_t after = at + std::char_traits<char>::length(kMarker);
    std::istringstream line(ptx.substr(after, stop - after));
    std::string name, operand;
    line >> name;
    std::vector<std::string> operands;
    while (line >> operand) operands.push_back(operand);
    const PtxMarkerRule* rule = nullptr;
    for (const auto& r : rules)
      if (r.name == name) rule = &r;
    if (!rule) refuse("marker '" + name + "' has no rule");
    if (operands.size() != rule->operands)
      refuse("marker '" + name + "' has " + std::to_string(operands.size()) + " operands, its rule " +
             std::to_string(rule->operands));
    out.ptx.append(ptx, pos, at - pos);
    out.ptx += "{\n" + fill(*rule, operands) + "\n}";
    ++out.replaced;
    pos = stop;
  }
  return out;
}

}  // namespace clgemm::detail
