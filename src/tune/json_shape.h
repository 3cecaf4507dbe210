// A tiny declarative checker for JSON documents the tuner writes and reads
// back (the evidence section of a profile): allowed keys per object, the
// type of each value, required keys. Errors name the full key path
// ("profile.tune.evidence.knobs[2]: unknown key 'gian'").
//
// valijson (reports/) would do the same from a JSON Schema file, but a
// profile must validate with no file beside the binary and with messages an
// operator can act on.
#pragma once

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "src/core/status.h"

namespace disktune::tune {

class Shape {
 public:
  enum class Kind {
    kObject,
    kArray,
    kString,
    kNumber,
    kInteger,
    kBool,
    kScalar,     // string, number or bool
    kAnyObject,  // an object whose keys are not fixed (engine options)
  };
  struct Field {
    std::string key;
    const Shape* shape;
    bool required = false;
  };

  static Shape Scalar(Kind kind) { return Shape(kind); }
  static Shape Object(std::vector<Field> fields) {
    Shape s(Kind::kObject);
    s.fields_ = std::move(fields);
    return s;
  }
  static Shape Array(const Shape* items) {
    Shape s(Kind::kArray);
    s.items_ = items;
    return s;
  }

  // InvalidArgument naming `path` and the offending key or type.
  Status Check(const nlohmann::json& j, const std::string& path) const;

 private:
  explicit Shape(Kind kind) : kind_(kind) {}
  Kind kind_;
  std::vector<Field> fields_;
  const Shape* items_ = nullptr;
};

// "string", "number", ... for messages.
const char* JsonTypeName(const nlohmann::json& j);

}  // namespace disktune::tune
