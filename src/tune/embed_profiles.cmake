# Writes OUT: a C++ file holding every PROFILE_DIR/*.json as a string, for
# src/tune/embedded_profiles.h. Run at build time (cmake -P).
file(GLOB files "${PROFILE_DIR}/*.json")
list(SORT files)
set(body "")
foreach(f IN LISTS files)
  get_filename_component(name "${f}" NAME_WE)
  file(READ "${f}" text)
  string(APPEND body "    {\"${name}\", R\"disktune_profile(${text})disktune_profile\"},\n")
endforeach()
set(content "// Generated from profiles/*.json by src/tune/embed_profiles.cmake.
#include \"src/tune/embedded_profiles.h\"

#include <array>

namespace disktune::tune {
namespace {
const EmbeddedProfile kProfiles[] = {
${body}    {\"\", \"\"},
};
}  // namespace

std::span<const EmbeddedProfile> EmbeddedProfiles() {
  return std::span<const EmbeddedProfile>(kProfiles, std::size(kProfiles) - 1);
}

}  // namespace disktune::tune
")
file(WRITE "${OUT}" "${content}")
