// Escaping text for an output format by a table of characters and what
// stands for them; HTML/SVG, Markdown and the Prometheus exposition format
// each keep their own table.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace disktune {

struct CharEscape {
  char c;
  std::string_view with;
};

// `text` with every character found in `table` replaced by its `with`; the
// other characters as they are.
std::string EscapeChars(std::string_view text,
                        std::initializer_list<CharEscape> table);

}  // namespace disktune
