#include "reports/char_escape.h"

namespace disktune {

std::string EscapeChars(std::string_view text,
                        std::initializer_list<CharEscape> table) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const CharEscape* hit = nullptr;
    for (const CharEscape& e : table) {
      if (e.c == c) {
        hit = &e;
        break;
      }
    }
    if (hit != nullptr) {
      out += hit->with;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace disktune
