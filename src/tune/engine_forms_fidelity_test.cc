// What the user gets is what was measured, in the spirit of RocksDB's
// options_settable_test: for every knob away from its default, the OPTIONS
// file disktune writes equals, option by option, the OPTIONS file RocksDB
// itself wrote into the database the RocksDB adapter opened with the same
// config (as a trial opens it); and LevelDB's snippet, compiled with the
// C++ compiler against LevelDB's headers, builds the options the LevelDB
// adapter opened with.
#include <gtest/gtest.h>
#include <rocksdb/cache.h>
#include <rocksdb/convenience.h>
#include <rocksdb/env.h>
#include <rocksdb/table.h>
#include <rocksdb/utilities/options_util.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include "engines/engine.h"
#include "src/core/units.h"
#include "src/model/knob_spec.h"
#include "src/tune/chosen_config_for_test.h"
#include "src/tune/engine_forms.h"

namespace disktune::tune {
namespace {

namespace fs = std::filesystem;

// A directory of its own, removed at the end.
class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : path_(fs::temp_directory_path() /
              (name + "_" + std::to_string(getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// A value of k away from RocksDB's default that RocksDB keeps as given
// (SanitizeOptions leaves it alone with the other knobs at their defaults).
KnobValue Away(const KnobSpec& k) {
  const KnobValue def = *k.rocksdb.default_value;
  switch (k.unit) {
    case KnobUnit::kBool:
      return 1 - def;
    case KnobUnit::kEnum:
      return (def + 1) % static_cast<KnobValue>(k.choices.size());
    case KnobUnit::kCompression:
      return static_cast<KnobValue>(Compression::kZstd);
    case KnobUnit::kBitsPerKey:
      return 10;
    case KnobUnit::kBytes:
    case KnobUnit::kCount:
      break;
  }
  Result<KnobValue> example = ParseKnobFlag(k, k.example);
  if (example.ok() && *example != def) return *example;
  return k.unit == KnobUnit::kBytes ? 2 * def : def + 1;
}

// Every option of a loaded OPTIONS file, by section, as RocksDB serialises
// them (so "10" and "10.000000" compare alike).
using Sections = std::map<std::string, std::map<std::string, std::string>>;

void AddSerialised(const std::string& section, const std::string& text,
                   Sections* out) {
  std::unordered_map<std::string, std::string> m;
  ASSERT_TRUE(rocksdb::StringToMap(text, &m).ok()) << text;
  for (auto& [key, value] : m) (*out)[section][key] = value;
}

Sections LoadSerialised(const std::string& file) {
  rocksdb::ConfigOptions config;
  config.env = rocksdb::Env::Default();
  rocksdb::DBOptions db;
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
  std::shared_ptr<rocksdb::Cache> no_cache;
  rocksdb::Status s = rocksdb::LoadOptionsFromFile(config, file, &db, &cfs);
  Sections out;
  EXPECT_TRUE(s.ok()) << file << ": " << s.ToString();
  if (!s.ok() || cfs.empty()) return out;
  std::string text;
  EXPECT_TRUE(rocksdb::GetStringFromDBOptions(config, db, &text).ok());
  AddSerialised("DBOptions", text, &out);
  EXPECT_TRUE(
      rocksdb::GetStringFromColumnFamilyOptions(config, cfs[0].options, &text)
          .ok());
  AddSerialised("CFOptions", text, &out);
  const auto& table = cfs[0].options.table_factory;
  EXPECT_TRUE(table->GetOptionString(config, &text).ok());
  AddSerialised("TableOptions/BlockBasedTable", text, &out);
  // RocksDB does not write the block cache into OPTIONS files: its
  // capacity, where the file gave one, from the loaded table options.
  const auto* bt = table->GetOptions<rocksdb::BlockBasedTableOptions>();
  if (bt != nullptr && bt->block_cache) {
    out["TableOptions/BlockBasedTable"]["block_cache"] =
        std::to_string(bt->block_cache->GetCapacity());
  }
  return out;
}

// The block cache's capacity the adapter opened with, from its settings
// ("... block_cache=8388608 ...").
std::string AdapterCacheBytes(const Engine& e) {
  for (const auto& [name, value] : e.Settings()) {
    if (name != "rocksdb.table_factory") continue;
    size_t at = value.find("block_cache=");
    if (at == std::string::npos) return "";
    std::istringstream in(value.substr(at + 12));
    std::string bytes;
    in >> bytes;
    return bytes;
  }
  return "";
}

// The OPTIONS file for c, and the one RocksDB wrote opening a database
// with c as a trial does, agree on every knob's option.
void ExpectRocksDbFilesAgree(const TuneConfig& c, const std::string& what) {
  SCOPED_TRACE(what);
  TempDir dir("engine_forms_fidelity");
  const fs::path ours = dir.path() / "disktune.rocksdb.ini";
  {
    std::ofstream f(ours);
    f << RocksDbOptionsIni(c, "fidelity test");
  }
  const fs::path db = dir.path() / "db";
  Result<std::unique_ptr<Engine>> engine = NewEngine("rocksdb");
  ASSERT_TRUE(engine.ok());
  ASSERT_TRUE((*engine)->Open(db, ToEngineOptions(c)).ok());
  EXPECT_TRUE((*engine)->unsupported_knobs().empty());
  const std::string adapter_cache = AdapterCacheBytes(**engine);
  ASSERT_TRUE((*engine)->Close().ok());
  std::string theirs;
  ASSERT_TRUE(
      rocksdb::GetLatestOptionsFileName(db, rocksdb::Env::Default(), &theirs)
          .ok());
  Sections mine = LoadSerialised(ours);
  Sections rocks = LoadSerialised(db / theirs);
  rocks["TableOptions/BlockBasedTable"]["block_cache"] = adapter_cache;
  for (const KnobSpec& k : Knobs()) {
    if (!k.rocksdb.default_value) continue;
    const std::string section(k.rocksdb.section);
    const std::string option(k.rocksdb.option);
    // An option RocksDB does not serialise at its value (an empty
    // compression_per_level) is "" on both sides; a misspelt one fails
    // LoadSerialised.
    EXPECT_EQ(mine[section][option], rocks[section][option])
        << k.json_key << ": the OPTIONS file says " << section << "." << option
        << "=" << mine[section][option] << ", the trial's database ran with "
        << rocks[section][option];
  }
}

TEST(EngineFormsFidelityTest, RocksDbDefaultsAreWhatTheTrialRan) {
  ExpectRocksDbFilesAgree(ModelFor("rocksdb").defaults, "defaults");
}

TEST(EngineFormsFidelityTest, EveryRocksDbKnobIsWhatTheTrialRan) {
  for (const KnobSpec& k : Knobs()) {
    if (!k.rocksdb.default_value) continue;
    TuneConfig c = ModelFor("rocksdb").defaults;
    EngineOptions o = ToEngineOptions(c);
    o.Set(k.id, Away(k));
    // RocksDB keeps min_write_buffer_number_to_merge below
    // max_write_buffer_number (SanitizeOptions), so merging two needs room
    // for three.
    if (k.id == KnobId::kMinWriteBufferNumberToMerge) {
      o.Set(KnobId::kMaxWriteBufferNumber, Away(k) + 1);
    }
    c = FromEngineOptions(o, c);
    ExpectRocksDbFilesAgree(
        c, std::string(k.json_key) + " = " + KnobValueText(k, Away(k)));
  }
}

TEST(EngineFormsFidelityTest, OptionsFileNamesTheLinkedRocksDb) {
  const std::string ini = RocksDbOptionsIni(ModelFor("rocksdb").defaults, "");
  Result<IniSections> s = ParseIni(ini);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->at("Version").at("rocksdb_version"),
            std::to_string(ROCKSDB_MAJOR) + "." +
                std::to_string(ROCKSDB_MINOR) + "." +
                std::to_string(ROCKSDB_PATCH));
}

// LevelDB's configs: its defaults, and every knob away from them.
std::vector<TuneConfig> LevelDbConfigs() {
  TuneConfig away = ChosenConfigForTest();
  away.Set(KnobId::kCompression, Compression::kNone);  // LevelDB's other codec
  return {ModelFor("leveldb").defaults, away};
}

// What a program built from the snippets prints for config i, in the LevelDB
// adapter's settings' names. The cache's capacity is read back by filling
// it (LevelDB's Cache has no capacity call), the filter's bits per key from
// the size of a filter over 800 keys (800 x bits / 8 bytes, plus one).
constexpr char kProbeMain[] = R"(
int main() {
  for (int i = 0; i < kConfigs; i++) {
    leveldb::Options o = kOptions[i]();
    std::printf("%d leveldb.write_buffer_size=%zu\n", i, o.write_buffer_size);
    std::printf("%d leveldb.max_file_size=%zu\n", i, o.max_file_size);
    std::printf("%d leveldb.block_size=%zu\n", i, o.block_size);
    std::printf("%d leveldb.max_open_files=%d\n", i, o.max_open_files);
    std::printf("%d leveldb.compression=%s\n", i,
                o.compression == leveldb::kSnappyCompression ? "snappy"
                                                             : "none");
    std::printf("%d leveldb.filter_policy=%s\n", i,
                o.filter_policy ? o.filter_policy->Name() : "none");
    if (o.filter_policy) {
      std::vector<std::string> keys;
      std::vector<leveldb::Slice> slices;
      for (int k = 0; k < 800; k++) keys.push_back(std::to_string(k));
      for (const auto& k : keys) slices.emplace_back(k);
      std::string filter;
      o.filter_policy->CreateFilter(slices.data(), 800, &filter);
      std::printf("%d leveldb.bloom_bits_per_key=%zu\n", i,
                  (filter.size() - 1) / 100);
    }
    size_t cache = 0;
    if (o.block_cache) {
      for (size_t n = 0; n < (size_t{1} << 17); n++) {
        std::string key = std::to_string(n);
        o.block_cache->Release(o.block_cache->Insert(
            key, nullptr, 1024, [](const leveldb::Slice&, void*) {}));
      }
      cache = o.block_cache->TotalCharge();
    }
    std::printf("%d leveldb.block_cache=%zu\n", i, cache);
  }
}
)";

// Runs `command`; its standard output, or nullopt when it failed.
std::optional<std::string> Output(const std::string& command) {
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) return std::nullopt;
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  if (pclose(p) != 0) return std::nullopt;
  return out;
}

TEST(EngineFormsFidelityTest, LevelDbSnippetCompilesToTheTrialsOptions) {
  const std::vector<TuneConfig> configs = LevelDbConfigs();
  TempDir dir("engine_forms_leveldb");
  std::ofstream src(dir.path() / "probe.cc");
  src << "#include <leveldb/cache.h>\n#include <leveldb/filter_policy.h>\n"
         "#include <leveldb/options.h>\n#include <cstdio>\n#include <string>\n"
         "#include <vector>\n";
  for (size_t i = 0; i < configs.size(); i++) {
    src << "namespace c" << i << " {\n"
        << LevelDbSnippet(configs[i], "config " + std::to_string(i)) << "}\n";
  }
  src << "constexpr int kConfigs = " << configs.size() << ";\n"
      << "leveldb::Options (*kOptions[])() = {";
  for (size_t i = 0; i < configs.size(); i++) {
    src << "c" << i << "::DisktuneOptions, ";
  }
  src << "};\n" << kProbeMain;
  src.close();
  const fs::path bin = dir.path() / "probe";
  const std::string compile = std::string(DISKTUNE_TEST_CXX) + " -std=c++17 " +
                              DISKTUNE_TEST_LEVELDB_FLAGS + " -o " +
                              bin.string() + " " +
                              (dir.path() / "probe.cc").string() + " " +
                              DISKTUNE_TEST_LEVELDB_LIB + " 2>&1";
  ASSERT_TRUE(Output(compile)) << compile;
  std::optional<std::string> printed = Output(bin.string());
  ASSERT_TRUE(printed);

  for (size_t i = 0; i < configs.size(); i++) {
    SCOPED_TRACE(ConfigText(configs[i]));
    Result<std::unique_ptr<Engine>> engine = NewEngine("leveldb");
    ASSERT_TRUE(engine.ok());
    const fs::path db = dir.path() / ("db" + std::to_string(i));
    ASSERT_TRUE((*engine)->Open(db, ToEngineOptions(configs[i])).ok());
    std::map<std::string, std::string> trial;
    for (const auto& [name, value] : (*engine)->Settings()) trial[name] = value;
    ASSERT_TRUE((*engine)->Close().ok());

    std::map<std::string, std::string> snippet;
    std::istringstream in(*printed);
    std::string index, line;
    while (in >> index >> line) {
      if (index != std::to_string(i)) continue;
      size_t eq = line.find('=');
      snippet[line.substr(0, eq)] = line.substr(eq + 1);
    }
    // The cache holds whole 1 KiB entries in each of its 16 shards.
    const double capacity = static_cast<double>(configs[i].cache_bytes());
    EXPECT_NEAR(std::stod(snippet["leveldb.block_cache"]), capacity, 17 * 1024);
    EXPECT_EQ(std::stoull(trial["leveldb.block_cache"]),
              configs[i].cache_bytes());
    snippet.erase("leveldb.block_cache");
    for (const auto& [name, value] : snippet) {
      EXPECT_EQ(value, trial[name]) << name;
    }
  }
}

}  // namespace
}  // namespace disktune::tune
