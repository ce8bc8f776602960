#pragma once
// The CUDA query functions gpuscope does not trace: cheap getters (cudaGetDevice, cudaGetLastError,
// cuCtxGetCurrent, ...) that frameworks call several times per operation. Nsight Systems leaves the
// same calls out of its CUDA API trace (checked against the loader2 fixture: none of them is in it),
// and recording each would cost the program a CUPTI record per call for nothing a user looks at.

namespace gpuscope::cuda {

// Tells CUPTI not to make activity records of the query functions; called after the RUNTIME and
// DRIVER activity kinds are enabled (enabling a kind again would undo it). Returns how many it
// could turn off.
int leaveOutQueryApiCalls();

}  // namespace gpuscope::cuda
