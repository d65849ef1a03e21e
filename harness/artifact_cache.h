// On-disk cache of compiled artifacts (cubin, code object), shared by the GPU
// backends: a resumed or repeated run recompiles nothing. Keys are hex digests of
// (source, compiler fingerprint); entries are written to a temporary file and renamed
// into place, so concurrent workers never see a torn artifact.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace crucible {

class ArtifactCache {
 public:
  // `dir` empty: default_dir(). A cache that cannot be created or written degrades to
  // misses; it never fails a compile.
  explicit ArtifactCache(std::filesystem::path dir = {});

  // $CRUCIBLE_CACHE_DIR, else $XDG_CACHE_HOME/crucible, else ~/.cache/crucible
  // (/tmp/crucible-cache without a home). CRUCIBLE_CACHE_DIR=off disables caching.
  static std::filesystem::path default_dir();
  // SHA-256 of source and fingerprint, as 64 hex digits.
  static std::string key(std::string_view source, std::string_view fingerprint);
  static std::string sha256_hex(std::string_view data);

  bool enabled() const { return !dir_.empty(); }
  const std::filesystem::path& dir() const { return dir_; }

  std::optional<std::vector<uint8_t>> get(const std::string& key) const;
  void put(const std::string& key, const std::vector<uint8_t>& bytes) const;
  // Same, for small text entries (e.g. measured device peaks as JSON).
  std::optional<std::string> get_text(const std::string& key) const;
  void put_text(const std::string& key, const std::string& text) const;

 private:
  std::filesystem::path path_for(const std::string& key) const;
  std::filesystem::path dir_;
};

}  // namespace crucible
