// DeviceFacts to and from JSON (worker hello, run.json, `crucible devices`).
#pragma once
#include <nlohmann/json.hpp>

#include "harness/device.h"

namespace crucible {
nlohmann::json to_json(const DeviceFacts&);
DeviceFacts device_facts_from_json(const nlohmann::json&);
}  // namespace crucible
