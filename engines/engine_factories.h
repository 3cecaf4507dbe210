// Constructors of the adapters, one per engine, for the registry in engine.cc.
// Each is defined in its adapter's .cc file, which CMake compiles only when
// the engine's library was found (DISKTUNE_HAVE_<X>).
#pragma once

#include <memory>

#include "engines/engine.h"
#include "src/core/library_build.h"

namespace disktune::engine_internal {

std::unique_ptr<Engine> NewLevelDbEngine();
std::unique_ptr<Engine> NewRocksDbEngine();
std::unique_ptr<Engine> NewSqlite3Engine();
std::unique_ptr<Engine> NewKyotoCabinetEngine();
std::unique_ptr<Engine> NewLmdbEngine();
std::unique_ptr<Engine> NewBdbEngine();

// The library build each adapter runs on (engines/engine_library.h).
LibraryBuild LevelDbLibrary();
LibraryBuild RocksDbLibrary();
LibraryBuild Sqlite3Library();
LibraryBuild KyotoCabinetLibrary();
LibraryBuild LmdbLibrary();
LibraryBuild BdbLibrary();

}  // namespace disktune::engine_internal
