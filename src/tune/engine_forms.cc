#include "src/tune/engine_forms.h"

#include <optional>
#include <sstream>

#include "engines/engine_library.h"
#include "engines/rocksdb_option_map.h"
#include "src/core/units.h"

namespace disktune::tune {
namespace {

std::string Human(uint64_t bytes) {
  return FormatBytes(static_cast<double>(bytes));
}

// LevelDB has two codecs: snappy, or none.
std::string LevelDbCompression(KnobValue v) {
  return static_cast<Compression>(v) == Compression::kNone
             ? "kNoCompression"
             : "kSnappyCompression";
}

// c's value of a knob LevelDB has; unlimited open files (which LevelDB
// cannot say) keeps LevelDB's default.
KnobValue LevelDbValue(const KnobSpec& k, const TuneConfig& c) {
  KnobValue v = c.Get(k.id).value_or(-1);
  return v < 0 ? *KnobDefault(k, "leveldb") : v;
}

// One line of DisktuneOptions(): the objects LevelDB takes for the cache and
// the filter, the codec's enum, or the number with a note for people.
std::string LevelDbLine(const KnobSpec& k, KnobValue v) {
  const std::string opt = "  options." + std::string(k.leveldb.option) + " = ";
  const bool is_default = v == *KnobDefault(k, "leveldb");
  switch (k.unit) {
    case KnobUnit::kCompression:
      return opt + "leveldb::" + LevelDbCompression(v) + ";\n";
    case KnobUnit::kBitsPerKey:
      return v > 0 ? opt + "leveldb::NewBloomFilterPolicy(" +
                         std::to_string(v) + ");\n"
                   : "  // No bloom filter (options.filter_policy stays "
                     "nullptr).\n";
    case KnobUnit::kCount:
      return opt + std::to_string(v) + ";" +
             (is_default
                  ? "  // the default"
                  : "  // needs ulimit -n >= " + std::to_string(v + 64)) +
             "\n";
    case KnobUnit::kBool:
    case KnobUnit::kEnum:
      // REQUIRES of the callers: only rows LevelDB has, none of these.
      return "";
    case KnobUnit::kBytes:
      break;
  }
  const std::string human = Human(static_cast<uint64_t>(v));
  if (k.id == KnobId::kCacheBytes) {
    return opt + "leveldb::NewLRUCache(" + std::to_string(v) + ");  // " +
           human + "\n";
  }
  return opt + std::to_string(v) + ";  // " + human +
         (is_default ? " (the default)" : "") + "\n";
}

// The key of a knob in the LevelDB JSON form: the option's name, or for the
// objects LevelDB takes, the figure that sizes them.
std::string LevelDbJsonKey(const KnobSpec& k) {
  if (k.id == KnobId::kCacheBytes) return "block_cache_capacity";
  if (k.id == KnobId::kBloomBitsPerKey) {
    return "filter_policy_bloom_bits_per_key";
  }
  return std::string(k.leveldb.option);
}

std::string Commented(const std::string& header, const std::string& marker) {
  std::string out;
  std::istringstream in(header);
  std::string line;
  while (std::getline(in, line)) out += marker + line + "\n";
  return out;
}

std::string Trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

}  // namespace

std::string RocksDbOptionsIni(const TuneConfig& c, const std::string& header) {
  std::ostringstream o;
  o << Commented(header, "# ");
  o << "# Load with rocksdb::LoadOptionsFromFile(); values not listed keep "
       "RocksDB's defaults.\n";
  // A caller that hands LoadOptionsFromFile a cache of its own (db_bench
  // does, from --cache_size) replaces block_cache, size and all.
  o << "# db_bench --options_file replaces block_cache with its own cache: "
       "give it --cache_size="
    << c.cache_bytes() << ".\n";
  if (c.sync) {
    o << "# Durable writes: set WriteOptions::sync = true on every write";
    if (c.entries_per_batch > 1) {
      o << ", committing " << c.entries_per_batch
        << " entries per WriteBatch (group commit)";
    }
    o << ".\n";
  }
  // The version of the RocksDB this build links, as RocksDB writes its own
  // OPTIONS files.
  o << "\n[Version]\n"
    << "  rocksdb_version=" << DescribeEngineLibrary("rocksdb").version << "\n"
    << "  options_file_version=1.1\n\n";
  // Every RocksDB knob, c's value or RocksDB's default where c leaves it
  // unset (a config made for another engine), through the map the RocksDB
  // adapter opens its databases with.
  EngineOptions e = ToEngineOptions(c);
  for (const KnobSpec& k : Knobs()) {
    if (k.rocksdb.default_value && !e.Get(k.id)) {
      e.Set(k.id, k.rocksdb.default_value);
    }
  }
  const RocksDbOptionMap map = RocksDbOptionsOf(e);
  for (std::string_view section : kRocksDbSections) {
    if (section != kRocksDbSections[0]) o << "\n";
    o << "[" << section;
    if (section != "DBOptions") o << " \"default\"";
    o << "]\n";
    if (section == "DBOptions") o << "  create_if_missing=true\n";
    for (const RocksDbOption& opt : map.options) {
      if (opt.section == section) {
        o << "  " << opt.name << "=" << opt.value << "\n";
      }
    }
  }
  return o.str();
}

std::string LevelDbSnippet(const TuneConfig& c, const std::string& header) {
  std::ostringstream o;
  o << Commented(header, "// ");
  o << "//\n"
       "// The block cache and the filter policy are owned by the caller:\n"
       "// delete options.block_cache and options.filter_policy after the "
       "DB.\n"
       "#include <leveldb/cache.h>\n"
       "#include <leveldb/filter_policy.h>\n"
       "#include <leveldb/options.h>\n\n"
       "leveldb::Options DisktuneOptions() {\n"
       "  leveldb::Options options;\n"
       "  options.create_if_missing = true;\n";
  for (const KnobSpec& k : Knobs()) {
    if (KnobDefault(k, "leveldb")) o << LevelDbLine(k, LevelDbValue(k, c));
  }
  o << "  return options;\n}\n";
  if (c.sync) {
    o << "\n// Durable writes: leveldb::WriteOptions write_options; "
         "write_options.sync = true;\n";
    if (c.entries_per_batch > 1) {
      o << "// Group commit: put " << c.entries_per_batch
        << " entries in each leveldb::WriteBatch before db->Write().\n";
    }
  }
  return o.str();
}

nlohmann::json LevelDbOptionsJson(const TuneConfig& c,
                                  const std::string& header) {
  nlohmann::json o;
  for (const KnobSpec& k : Knobs()) {
    if (!KnobDefault(k, "leveldb")) continue;
    KnobValue v = LevelDbValue(k, c);
    if (k.unit == KnobUnit::kCompression) {
      o[LevelDbJsonKey(k)] = LevelDbCompression(v);
    } else {
      o[LevelDbJsonKey(k)] = v;
    }
  }
  nlohmann::json j;
  j["engine"] = "leveldb";
  j["leveldb_version"] = std::string(ModelFor("leveldb").version);
  j["comment"] = header;
  j["options"] = o;
  j["write_options"] = {{"sync", c.sync}};
  if (c.entries_per_batch > 1) j["entries_per_batch"] = c.entries_per_batch;
  return j;
}

std::vector<std::pair<std::string, std::string>> EngineForms(
    std::string_view engine, const TuneConfig& c, const std::string& header) {
  if (engine == "rocksdb") {
    return {{".rocksdb.ini", RocksDbOptionsIni(c, header)}};
  }
  return {{".leveldb.cc", LevelDbSnippet(c, header)},
          {".leveldb.json", LevelDbOptionsJson(c, header).dump(2) + "\n"}};
}

Result<IniSections> ParseIni(std::string_view text) {
  IniSections out;
  std::string section;
  size_t line_no = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string line = Trim(text.substr(pos, nl - pos));
    pos = nl + 1;
    line_no++;
    if (line.empty() || line[0] == '#') continue;
    if (line.front() == '[') {
      if (line.back() != ']') {
        return Status::InvalidArgument("line " + std::to_string(line_no) +
                                       ": unterminated section header");
      }
      section = line.substr(1, line.size() - 2);
      out[section];
      continue;
    }
    size_t eq = line.find('=');
    if (eq == std::string::npos || section.empty()) {
      return Status::InvalidArgument("line " + std::to_string(line_no) +
                                     ": expected key=value in a section");
    }
    out[section][Trim(line.substr(0, eq))] = Trim(line.substr(eq + 1));
  }
  return out;
}

}  // namespace disktune::tune
