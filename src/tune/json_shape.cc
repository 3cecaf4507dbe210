#include "src/tune/json_shape.h"

namespace disktune::tune {
namespace {

const char* KindName(Shape::Kind k) {
  switch (k) {
    case Shape::Kind::kObject:
    case Shape::Kind::kAnyObject:
      return "an object";
    case Shape::Kind::kArray:
      return "a list";
    case Shape::Kind::kString:
      return "a string";
    case Shape::Kind::kNumber:
      return "a number";
    case Shape::Kind::kInteger:
      return "an integer";
    case Shape::Kind::kBool:
      return "true or false";
    case Shape::Kind::kScalar:
      return "a string, number or boolean";
  }
  return "?";
}

bool Matches(Shape::Kind k, const nlohmann::json& j) {
  switch (k) {
    case Shape::Kind::kObject:
    case Shape::Kind::kAnyObject:
      return j.is_object();
    case Shape::Kind::kArray:
      return j.is_array();
    case Shape::Kind::kString:
      return j.is_string();
    case Shape::Kind::kNumber:
      return j.is_number();
    case Shape::Kind::kInteger:
      return j.is_number_integer();
    case Shape::Kind::kBool:
      return j.is_boolean();
    case Shape::Kind::kScalar:
      return j.is_string() || j.is_number() || j.is_boolean();
  }
  return false;
}

}  // namespace

const char* JsonTypeName(const nlohmann::json& j) {
  if (j.is_object()) return "an object";
  if (j.is_array()) return "a list";
  if (j.is_string()) return "a string";
  if (j.is_boolean()) return "a boolean";
  if (j.is_number_integer()) return "an integer";
  if (j.is_number()) return "a number";
  return "null";
}

Status Shape::Check(const nlohmann::json& j, const std::string& path) const {
  if (!Matches(kind_, j)) {
    return Status::InvalidArgument(path + " must be " + KindName(kind_) +
                                   ", not " + JsonTypeName(j));
  }
  if (kind_ == Kind::kArray) {
    for (size_t i = 0; i < j.size(); i++) {
      DT_RETURN_IF_ERROR(
          items_->Check(j[i], path + "[" + std::to_string(i) + "]"));
    }
    return Status::OK();
  }
  if (kind_ != Kind::kObject) return Status::OK();
  for (const auto& [key, value] : j.items()) {
    const Field* field = nullptr;
    for (const Field& f : fields_) {
      if (f.key == key) field = &f;
    }
    if (field == nullptr) {
      std::string known;
      for (const Field& f : fields_)
        known += (known.empty() ? "" : ", ") + f.key;
      return Status::InvalidArgument(path + ": unknown key '" + key +
                                     "'; known: " + known);
    }
    DT_RETURN_IF_ERROR(field->shape->Check(value, path + "." + key));
  }
  for (const Field& f : fields_) {
    if (f.required && !j.contains(f.key)) {
      return Status::InvalidArgument(path + ": missing key '" + f.key + "'");
    }
  }
  return Status::OK();
}

}  // namespace disktune::tune
