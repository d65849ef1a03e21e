// results/<run>/: run.json, records.jsonl (append-only, flushed and fsynced per
// record), candidates/<hash> by content hash, transcripts/. Opening an existing run
// resumes it: finished records are read back, a torn last line is ignored (and cut
// off before the next append), nothing is evaluated twice.
#pragma once
#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace crucible {

class ResultsStore {
 public:
  // Creates the folder or opens it for resuming.
  explicit ResultsStore(std::filesystem::path dir);
  ~ResultsStore();
  ResultsStore(const ResultsStore&) = delete;
  ResultsStore& operator=(const ResultsStore&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  // Records already on disk when the store was opened, in order.
  const std::vector<nlohmann::json>& existing() const { return existing_; }
  int torn_lines_dropped() const { return torn_; }
  bool has(const std::string& record_key) const;

  // Appends one record (must carry "key"); written, flushed and fsynced before return.
  void append(const nlohmann::json& record);
  // Stores a candidate's source under candidates/<sha256>; returns the hash.
  std::string store_candidate(const std::string& source);
  // Writes a whole file atomically (write to temp, fsync, rename).
  void write_file(const std::string& relative, const std::string& content);

 private:
  std::filesystem::path dir_;
  std::vector<nlohmann::json> existing_;
  std::set<std::string> keys_;
  int fd_ = -1;
  int torn_ = 0;
  mutable std::mutex mu_;  // guards the file offset and keys_ (has() runs beside append())
};

}  // namespace crucible
