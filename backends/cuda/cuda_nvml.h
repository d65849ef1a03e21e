// The SM clock now, from NVML (loaded with dlopen; optional). Records keep the
// clock seen while timing, so samples taken at a low clock can be flagged.
#pragma once
#include <cstdint>
#include <string>

namespace crucible {

// Current SM clock of the device at `pci_bus_id` in kHz; 0 when NVML is unavailable.
int64_t nvml_sm_clock_khz(const std::string& pci_bus_id);

}  // namespace crucible
