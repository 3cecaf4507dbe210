#include "src/tune/engine_forms.h"

#include <sstream>

#include "src/core/units.h"

namespace disktune::tune {
namespace {

const char* RocksDbCompression(Compression c) {
  switch (c) {
    case Compression::kNone:
      return "kNoCompression";
    case Compression::kSnappy:
      return "kSnappyCompression";
    case Compression::kLz4:
      return "kLZ4Compression";
    case Compression::kZstd:
      return "kZSTD";
    case Compression::kLzo:
      break;
  }
  return "kNoCompression";
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

std::string Human(uint64_t bytes) {
  return FormatBytes(static_cast<double>(bytes));
}

}  // namespace

std::string RocksDbOptionsIni(const TuneConfig& c, const std::string& header) {
  const EngineModel& m = ModelFor("rocksdb");
  std::ostringstream o;
  o << Commented(header, "# ");
  o << "# Load with rocksdb::LoadOptionsFromFile(); values not listed keep "
       "RocksDB's defaults.\n";
  if (c.sync) {
    o << "# Durable writes: set WriteOptions::sync = true on every write";
    if (c.entries_per_batch > 1) {
      o << ", committing " << c.entries_per_batch
        << " entries per WriteBatch (group commit)";
    }
    o << ".\n";
  }
  o << "\n[Version]\n"
    << "  rocksdb_version=7.8.3\n"
    << "  options_file_version=1.1\n\n";
  o << "[DBOptions]\n"
    << "  create_if_missing=true\n"
    << "  max_open_files=" << (c.max_open_files ? *c.max_open_files : -1)
    << "\n\n";
  o << "[CFOptions \"default\"]\n"
    << "  write_buffer_size=" << c.write_buffer_bytes << "\n"
    << "  max_write_buffer_number=" << m.write_buffers << "\n"
    << "  compression=" << RocksDbCompression(c.compression) << "\n"
    << "  target_file_size_base=" << c.max_file_bytes << "\n\n";
  o << "[TableOptions/BlockBasedTable \"default\"]\n"
    << "  block_cache=" << c.cache_bytes << "\n"
    << "  block_size=" << c.block_size_bytes << "\n";
  if (c.bloom_bits_per_key > 0) {
    o << "  filter_policy=bloomfilter:" << c.bloom_bits_per_key << ":false\n";
  }
  return o.str();
}

std::string LevelDbSnippet(const TuneConfig& c, const std::string& header) {
  const TuneConfig& d = ModelFor("leveldb").defaults;
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
  auto note = [](uint64_t v, uint64_t def, const std::string& text) {
    return v == def ? "  // " + text + " (the default)" : "  // " + text;
  };
  o << "  options.write_buffer_size = " << c.write_buffer_bytes << ";"
    << note(c.write_buffer_bytes, d.write_buffer_bytes,
            Human(c.write_buffer_bytes))
    << "\n";
  o << "  options.block_cache = leveldb::NewLRUCache(" << c.cache_bytes
    << ");  // " << Human(c.cache_bytes) << "\n";
  if (c.bloom_bits_per_key > 0) {
    o << "  options.filter_policy = leveldb::NewBloomFilterPolicy("
      << c.bloom_bits_per_key << ");\n";
  } else {
    o << "  // No bloom filter (options.filter_policy stays nullptr).\n";
  }
  o << "  options.compression = "
    << (c.compression == Compression::kNone ? "leveldb::kNoCompression"
                                            : "leveldb::kSnappyCompression")
    << ";\n";
  o << "  options.block_size = " << c.block_size_bytes << ";"
    << note(c.block_size_bytes, d.block_size_bytes, Human(c.block_size_bytes))
    << "\n";
  int mof = c.max_open_files.value_or(*d.max_open_files);
  o << "  options.max_open_files = " << mof << ";"
    << (mof == *d.max_open_files
            ? std::string("  // the default")
            : "  // needs ulimit -n >= " + std::to_string(mof + 64))
    << "\n";
  o << "  options.max_file_size = " << c.max_file_bytes << ";"
    << note(c.max_file_bytes, d.max_file_bytes, Human(c.max_file_bytes))
    << "\n";
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
  const TuneConfig& d = ModelFor("leveldb").defaults;
  nlohmann::json o;
  o["write_buffer_size"] = c.write_buffer_bytes;
  o["block_cache_capacity"] = c.cache_bytes;
  o["filter_policy_bloom_bits_per_key"] = c.bloom_bits_per_key;
  o["compression"] = c.compression == Compression::kNone ? "kNoCompression"
                                                         : "kSnappyCompression";
  o["block_size"] = c.block_size_bytes;
  o["max_open_files"] = c.max_open_files.value_or(*d.max_open_files);
  o["max_file_size"] = c.max_file_bytes;
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
