#include "collector/cuda/query_api_filter.h"

#include <cupti.h>

namespace gpuscope::cuda {
namespace {

constexpr CUpti_CallbackId kRuntimeQueries[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceCount_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaPeekAtLastError_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetErrorString_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetErrorName_v6050,
    CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetAttribute_v5000,
    CUPTI_RUNTIME_TRACE_CBID_cudaDriverGetVersion_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaRuntimeGetVersion_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetStreamPriorityRange_v5050,
};

constexpr CUpti_CallbackId kDriverQueries[] = {
    CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent,
    CUPTI_DRIVER_TRACE_CBID_cuCtxGetDevice,
    CUPTI_DRIVER_TRACE_CBID_cuDeviceGet,
    CUPTI_DRIVER_TRACE_CBID_cuDeviceGetAttribute,
    CUPTI_DRIVER_TRACE_CBID_cuDeviceGetCount,
    CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxGetState,
    CUPTI_DRIVER_TRACE_CBID_cuDriverGetVersion,
    CUPTI_DRIVER_TRACE_CBID_cuCtxGetLimit,
};

}  // namespace

int leaveOutQueryApiCalls() {
  int off = 0;
  for (CUpti_CallbackId id : kRuntimeQueries) off += cuptiActivityEnableRuntimeApi(id, 0) == CUPTI_SUCCESS;
  for (CUpti_CallbackId id : kDriverQueries) off += cuptiActivityEnableDriverApi(id, 0) == CUPTI_SUCCESS;
  return off;
}

}  // namespace gpuscope::cuda
