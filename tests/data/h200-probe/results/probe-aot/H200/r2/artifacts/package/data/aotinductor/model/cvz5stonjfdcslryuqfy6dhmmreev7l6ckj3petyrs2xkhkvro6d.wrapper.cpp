
#include <torch/csrc/inductor/aoti_include/cuda.h>
// Definition of AOTI runtime interface functions

#include <torch/csrc/inductor/aoti_runtime/interface.h>
#include <torch/csrc/inductor/aoti_runtime/model_container.h>

#include <iostream>
#include <vector>

#define CONVERT_EXCEPTION_TO_ERROR_CODE(...)      \
  try {                                           \
    __VA_ARGS__                                   \
  } catch (const std::exception& e) {             \
    std::cerr << "Error: " << e.what() << '\n';   \
    return AOTI_RUNTIME_FAILURE;                  \
  } catch (...) {                                 \
    std::cerr << "Unknown exception occurred.\n"; \
    return AOTI_RUNTIME_FAILURE;                  \
  }                                               \
  return AOTI_RUNTIME_SUCCESS;

#define AOTI_VECTOR_SIZE_CHECK(actual_size, expected_size, name)  \
  do {                                                            \
    AOTI_RUNTIME_CHECK(                                           \
        actual_size == expected_size,                             \
        "expected " + std::string(name) + " vector size to be " + \
            std::to_string(expected_size) + ", but got " +        \
            std::to_string(actual_size));                         \
  } while (0)

// AOTInductor uses at::addmm_out, which doesn't supports
// arguments that requires gradient. For this reason, we
// enforce no_grad context for run APIs.
//
// A RAII, thread local (!) guard that enables or disables grad mode upon
// construction, and sets it back to the original value upon destruction.
struct AOTINoGradGuard {
  AOTINoGradGuard() {
    aoti_torch_grad_mode_set_enabled(false);
  }
  AOTINoGradGuard(const AOTINoGradGuard&) = delete;
  AOTINoGradGuard(AOTINoGradGuard&&) noexcept = delete;
  ~AOTINoGradGuard() {
    aoti_torch_grad_mode_set_enabled(prev_mode);
  }
  AOTINoGradGuard& operator=(const AOTINoGradGuard&) = delete;
  AOTINoGradGuard& operator=(AOTINoGradGuard&&) noexcept = delete;
  bool prev_mode{aoti_torch_grad_mode_is_enabled()};
};

extern "C" {

AOTIRuntimeError AOTInductorModelContainerCreate(
    AOTInductorModelContainerHandle* container_handle,
    size_t num_models,
    bool is_cpu,
    const char* cubin_dir) {
      return AOTInductorModelContainerCreateWithDevice(
        container_handle,
        num_models,
        is_cpu ? "cpu" : "cuda",
        cubin_dir);
}

AOTIRuntimeError AOTInductorModelContainerCreateWithDevice(
    AOTInductorModelContainerHandle* container_handle,
    size_t num_models,
    const char* device_str,
    const char* cubin_dir) {

  if (num_models == 0) {
    std::cerr << "Error: num_models must be positive, but got 0\n";
    return AOTI_RUNTIME_FAILURE;
  }
  CONVERT_EXCEPTION_TO_ERROR_CODE({
    std::optional<std::string> cubin_dir_opt;
    if (cubin_dir != nullptr) {
      cubin_dir_opt.emplace(cubin_dir);
    }
    auto* container = new torch::aot_inductor::AOTInductorModelContainer(
        num_models, std::string(device_str), cubin_dir_opt);
    *container_handle =
        reinterpret_cast<AOTInductorModelContainerHandle>(container);
  })
}


AOTIRuntimeError AOTInductorModelContainerDelete(
    AOTInductorModelContainerHandle container_handle) {
  CONVERT_EXCEPTION_TO_ERROR_CODE({
    auto* container =
        reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
            container_handle);
    delete container;
  });
}

AOTIRuntimeError AOTInductorModelContainerRun(
    AOTInductorModelContainerHandle container_handle,
    AtenTensorHandle* input_handles, // array of input AtenTensorHandle; handles
                                     // are stolen; the array itself is borrowed
    size_t num_inputs,
    AtenTensorHandle*
        output_handles, // array for writing output AtenTensorHandle; handles
                        // will be stolen by the caller; the array itself is
                        // borrowed
    size_t num_outputs,
    AOTInductorStreamHandle stream_handle,
    AOTIProxyExecutorHandle proxy_executor_handle) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
          container_handle);
  AOTI_VECTOR_SIZE_CHECK(num_inputs, container->num_inputs(), "inputs");
  AOTI_VECTOR_SIZE_CHECK(num_outputs, container->num_outputs(), "outputs");

  auto stream =
      reinterpret_cast<torch::aot_inductor::DeviceStreamType>(stream_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE({
    AOTINoGradGuard guard;
    container->run(
        input_handles, output_handles, stream, proxy_executor_handle);
  })
}

AOTIRuntimeError AOTInductorModelContainerRunSingleThreaded(
    AOTInductorModelContainerHandle container_handle,
    AtenTensorHandle* input_handles, // array of input AtenTensorHandle; handles
                                     // are stolen; the array itself is borrowed
    size_t num_inputs,
    AtenTensorHandle*
        output_handles, // array for writing output AtenTensorHandle; handles
                        // will be stolen by the caller; the array itself is
                        // borrowed
    size_t num_outputs,
    AOTInductorStreamHandle stream_handle,
    AOTIProxyExecutorHandle proxy_executor_handle) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
          container_handle);
  AOTI_VECTOR_SIZE_CHECK(num_inputs, container->num_inputs(), "inputs");
  AOTI_VECTOR_SIZE_CHECK(num_outputs, container->num_outputs(), "outputs");

  auto stream =
      reinterpret_cast<torch::aot_inductor::DeviceStreamType>(stream_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE({
    AOTINoGradGuard guard;
    container->run_single_threaded(
        input_handles, output_handles, stream, proxy_executor_handle);
  })
}

AOTIRuntimeError AOTInductorModelContainerGetNumConstants(
    AOTInductorModelContainerHandle container_handle,
    size_t* num_constants) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
          container_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE(
    { *num_constants = container->num_constants(); })
}

AOTIRuntimeError AOTInductorModelContainerGetConstantName(
    AOTInductorModelContainerHandle container_handle,
    size_t idx,
    const char** name) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
          container_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE(
    { *name = container->constant_name(idx); })
}

AOTIRuntimeError AOTInductorModelContainerGetConstantOriginalFQN(
    AOTInductorModelContainerHandle container_handle,
    size_t idx,
    const char** original_fqn) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
          container_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE(
    { *original_fqn = container->constant_original_fqn(idx); })
}

AOTIRuntimeError AOTInductorModelContainerGetConstantFromFolded(
    AOTInductorModelContainerHandle container_handle,
    size_t idx,
    bool* from_folded) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(container_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE({ *from_folded = container->constant_from_folded(idx); })
}

AOTIRuntimeError AOTInductorModelContainerGetConstantType(
    AOTInductorModelContainerHandle container_handle,
    size_t idx,
    int32_t* type) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(container_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE({ *type = container->constant_type(idx); })
}

AOTIRuntimeError AOTInductorModelContainerGetConstantDtype(
    AOTInductorModelContainerHandle container_handle,
    size_t idx,
    int32_t* dtype) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
          container_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE(
    { *dtype = container->constant_dtype(idx); })
}

AOTIRuntimeError AOTInductorModelContainerGetConstantDataSize(
  AOTInductorModelContainerHandle container_handle,
  size_t idx,
  size_t* data_size) {
  auto* container =
    reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
        container_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE(
    { *data_size = container->constant_data_size(idx); })
}

AOTIRuntimeError AOTInductorModelContainerExtractConstantsMap(
    AOTInductorModelContainerHandle container_handle,
    AOTInductorConstantMapHandle constant_map_handle,
    bool use_inactive) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
          container_handle);
  auto constants_map = reinterpret_cast<std::unordered_map<std::string, AtenTensorHandle>*>(constant_map_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE(
    { const auto ret = container->extract_constants_map(use_inactive);
      for (const auto& pair: ret) {
        constants_map->emplace(pair.first, pair.second);
      }
    })
}

AOTIRuntimeError AOTInductorModelContainerUpdateUserManagedConstantBuffer(
    AOTInductorModelContainerHandle container_handle,
    AOTInductorConstantMapHandle constant_map_handle,
    bool use_inactive,
    bool validate_full_update) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
          container_handle);
  auto input_map = reinterpret_cast<std::unordered_map<std::string, AtenTensorHandle>*>(constant_map_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE({
    container->update_constant_buffer(
        *input_map, use_inactive, validate_full_update, /* user_managed = */ true);
  })
}

AOTIRuntimeError AOTInductorModelContainerUpdateUserManagedConstantBufferPairs(
    AOTInductorModelContainerHandle container_handle,
    const AOTInductorConstantMapEntry* pairs,
    size_t num_pairs,
    bool use_inactive,
    bool validate_full_update) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(container_handle);
  // Build a local unordered_map inside
  std::unordered_map<std::string, AtenTensorHandle> input_map;
  input_map.reserve(num_pairs);
  for (size_t i = 0; i < num_pairs; ++i) {
      input_map.emplace(pairs[i].name, pairs[i].handle);
  }
  CONVERT_EXCEPTION_TO_ERROR_CODE({
    container->update_constant_buffer(
        input_map, use_inactive, validate_full_update, /*user_managed=*/true);
  })
}

AOTIRuntimeError AOTInductorModelContainerUpdateConstantBuffer(
    AOTInductorModelContainerHandle container_handle,
    AOTInductorConstantMapHandle constant_map_handle,
    bool use_inactive,
    bool validate_full_update) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
          container_handle);
  auto input_map = reinterpret_cast<std::unordered_map<std::string, AtenTensorHandle>*>(constant_map_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE({
    container->update_constant_buffer(
        *input_map, use_inactive, validate_full_update);
  })
}

AOTIRuntimeError AOTInductorModelContainerUpdateInactiveConstantBuffer(
    AOTInductorModelContainerHandle container_handle,
    AOTInductorConstantMapHandle constant_map_handle) {
  return AOTInductorModelContainerUpdateConstantBuffer(container_handle,
          constant_map_handle,
          /*use_inactive*/ true,
          /*validate_full_update*/ true);
}

AOTIRuntimeError AOTInductorModelContainerFreeInactiveConstantBuffer(
    AOTInductorModelContainerHandle container_handle) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
          container_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE({
    container->free_inactive_constant_buffer();
  })
}

AOTIRuntimeError AOTInductorModelContainerRunConstantFolding(
    AOTInductorModelContainerHandle container_handle,
    bool use_inactive,
    AOTInductorStreamHandle stream_handle,
    AOTIProxyExecutorHandle proxy_executor_handle) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
          container_handle);
  auto stream =
      reinterpret_cast<torch::aot_inductor::DeviceStreamType>(stream_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE({
    AOTINoGradGuard guard;
    container->run_const_fold(use_inactive, stream, proxy_executor_handle);
  })
}

AOTIRuntimeError AOTInductorModelContainerSwapConstantBuffer(
    AOTInductorModelContainerHandle container_handle) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
          container_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE({
    container->swap_constant_buffer();
  })
}

AOTIRuntimeError AOTInductorModelContainerGetNumInputs(
    AOTInductorModelContainerHandle container_handle,
    size_t* ret_num_inputs) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
          container_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE(
      { *ret_num_inputs = container->num_inputs(); })
}

AOTIRuntimeError AOTInductorModelContainerGetInputName(
    AOTInductorModelContainerHandle container_handle,
    size_t input_idx,
    const char** ret_input_names) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
          container_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE(
      { *ret_input_names = container->input_name(input_idx); })
}

AOTIRuntimeError AOTInductorModelContainerGetNumOutputs(
    AOTInductorModelContainerHandle container_handle,
    size_t* ret_num_outputs) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
          container_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE(
      { *ret_num_outputs = container->num_outputs(); })
}

AOTIRuntimeError AOTInductorModelContainerGetOutputName(
    AOTInductorModelContainerHandle container_handle,
    size_t output_idx,
    const char** ret_output_names) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
          container_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE(
      { *ret_output_names = container->output_name(output_idx); })
}

AOTIRuntimeError AOTInductorModelContainerGetCallSpec(
    AOTInductorModelContainerHandle container_handle,
    const char** in_spec,
    const char** out_spec) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
          container_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE({
    *in_spec = container->get_in_spec();
    *out_spec = container->get_out_spec();
  })
}

AOTIRuntimeError AOTInductorModelCreate(
    AOTInductorModelHandle* model_handle,
    AOTInductorConstantMapHandle constant_map_handle){
    CONVERT_EXCEPTION_TO_ERROR_CODE({
      auto constant_map = std::make_shared<torch::aot_inductor::ConstantMap>();
      auto constant_array = std::make_shared<std::vector<torch::aot_inductor::ConstantHandle>>();
      auto input_map = reinterpret_cast<std::unordered_map<std::string, AtenTensorHandle>*>(constant_map_handle);

      auto model = new torch::aot_inductor::AOTInductorModel(
          constant_map,
          constant_array,
          "cpu", // device_str is hardcoded, as AOTInductorModelCreate is only use for CPU models
          ""
      );

      if (input_map) {
        for (auto const& kv : *input_map) {
          constant_map->emplace(kv.first, kv.second);
        }
      } else {
        model->load_constants();
      }

      *model_handle = reinterpret_cast<AOTInductorModelHandle>(model);
    })}

AOTIRuntimeError AOTInductorModelRun(
    AOTInductorModelHandle model_handle,
    AtenTensorHandle* input_handles,
    AtenTensorHandle* output_handles) {
  auto model =
      reinterpret_cast<torch::aot_inductor::AOTInductorModel*>(model_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE({
    AOTINoGradGuard guard;
    model->run_impl(
        input_handles,
        output_handles,
        (torch::aot_inductor::DeviceStreamType) nullptr,
        nullptr);
  })
}

AOTIRuntimeError AOTInductorModelDelete(AOTInductorModelHandle model_handle){
    CONVERT_EXCEPTION_TO_ERROR_CODE({
      auto model = reinterpret_cast<torch::aot_inductor::AOTInductorModel*>(
          model_handle);
      delete model;
    })}

AOTIRuntimeError AOTInductorModelGetNumOutputs(
    AOTInductorModelHandle model_handle,
    size_t* ret_num_outputs) {
  CONVERT_EXCEPTION_TO_ERROR_CODE({
      auto model = reinterpret_cast<torch::aot_inductor::AOTInductorModel*>(model_handle);
      *ret_num_outputs = model->num_outputs();
  })
}

AOTIRuntimeError AOTInductorModelUpdateConstantsMap(
    AOTInductorModelHandle model_handle,
    AOTInductorConstantMapHandle constant_map_handle) {
  auto model =
      reinterpret_cast<torch::aot_inductor::AOTInductorModel*>(model_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE({
    auto constant_map = std::make_shared<torch::aot_inductor::ConstantMap>();
    auto input_map =
        reinterpret_cast<std::unordered_map<std::string, AtenTensorHandle>*>(
            constant_map_handle);

    for (auto const& kv : *input_map) {
      constant_map->emplace(kv.first, kv.second);
    }
    model->update_constants_map(std::move(constant_map));
  })
}

AOTIRuntimeError AOTInductorModelContainerGetConstantsBlobSize(
    AOTInductorModelContainerHandle container_handle,
    uint64_t* ret_size) {
  auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
          container_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE(
      { *ret_size = container->constant_blob_size(); })
}


// Load weights from a single blob in weight_blob_ptr
AOTIRuntimeError AOTInductorModelUpdateConstantsFromBlob(
    AOTInductorModelContainerHandle container_handle,
    const uint8_t* weight_blob_ptr){
    auto* container =
      reinterpret_cast<torch::aot_inductor::AOTInductorModelContainer*>(
          container_handle);
  CONVERT_EXCEPTION_TO_ERROR_CODE(
      {container->update_constants_from_blob(weight_blob_ptr); })
    }


} // extern "C"


#define CUDA_DRIVER_CHECK(EXPR)                    \
do {                                               \
    CUresult code = EXPR;                          \
    const char *msg;                               \
    CUresult code_get_error = cuGetErrorString(code, &msg); \
    if (code_get_error != CUDA_SUCCESS) {          \
        throw std::runtime_error(                  \
            std::string("CUDA driver error: ") +   \
            std::string("invalid error code!"));   \
    }                                              \
    if (code != CUDA_SUCCESS) {                    \
        throw std::runtime_error(                  \
            std::string("CUDA driver error: ") +   \
            std::string(msg));                     \
    }                                              \
} while (0);

static inline CUfunction loadKernel(
        std::string filePath,
        const std::string &funcName,
        uint32_t sharedMemBytes,
        const std::optional<std::string> &cubinDir = std::nullopt) {
    if (cubinDir) {
        std::filesystem::path p1{*cubinDir};
        std::filesystem::path p2{filePath};
        filePath = (p1 / p2.filename()).string();
    }

    CUmodule mod;
    CUfunction func;
    CUDA_DRIVER_CHECK(cuModuleLoad(&mod, filePath.c_str()));
    CUDA_DRIVER_CHECK(cuModuleGetFunction(&func, mod, funcName.c_str()));
    if (sharedMemBytes > 0) {
        CUDA_DRIVER_CHECK(cuFuncSetAttribute(
            func,
            CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            sharedMemBytes
        ))
    }
    return func;
}

static inline CUfunction loadKernel(const void* start, const std::string &funcName, uint32_t sharedMemBytes) {
    CUmodule mod;
    CUfunction func;
    CUDA_DRIVER_CHECK(cuModuleLoadData(&mod, start));
    CUDA_DRIVER_CHECK(cuModuleGetFunction(&func, mod, funcName.c_str()));
    if (sharedMemBytes > 0) {
        CUDA_DRIVER_CHECK(cuFuncSetAttribute(
            func,
            CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            sharedMemBytes
        ))
    }
    return func;
}

static inline void launchKernel(
        CUfunction func,
        uint32_t gridX,
        uint32_t gridY,
        uint32_t gridZ,
        uint32_t numWarps,
        uint32_t sharedMemBytes,
        void* args[],
        cudaStream_t stream) {
    CUDA_DRIVER_CHECK(cuLaunchKernel(
        func, gridX, gridY, gridZ, 32*numWarps, 1, 1, sharedMemBytes, stream, args, nullptr
    ));
}
CACHE_TORCH_DTYPE(float16);
CACHE_TORCH_DTYPE(float32);
CACHE_TORCH_DEVICE(cuda);
CACHE_TORCH_LAYOUT(strided);
namespace torch::aot_inductor {
namespace {
class AOTInductorModelKernels : public AOTInductorModelKernelsBase {
  public:
    CUfunction triton_per_fused_convolution_native_group_norm_2{nullptr};
    CUfunction triton_per_fused_convolution_native_group_norm_3{nullptr};
    CUfunction triton_per_fused_convolution_native_group_norm_4{nullptr};
    CUfunction triton_poi_fused__to_copy__unsafe_view_add_10{nullptr};
    CUfunction triton_poi_fused__to_copy__unsafe_view_add_mul_8{nullptr};
    CUfunction triton_poi_fused__to_copy_add_clone_convolution_silu_transpose_view_11{nullptr};
    CUfunction triton_poi_fused__to_copy_add_convolution_silu_transpose_view_13{nullptr};
    CUfunction triton_poi_fused__to_copy_add_convolution_silu_transpose_view_14{nullptr};
    CUfunction triton_poi_fused__to_copy_add_convolution_silu_transpose_view_15{nullptr};
    CUfunction triton_poi_fused__unsafe_view_add_gelu_12{nullptr};
    CUfunction triton_poi_fused_add_clone_convolution_silu_transpose_view_7{nullptr};
    CUfunction triton_poi_fused_convolution_0{nullptr};
    CUfunction triton_poi_fused_convolution_1{nullptr};
    CUfunction triton_poi_fused_convolution_native_group_norm_silu_5{nullptr};
    CUfunction triton_poi_fused_convolution_silu_6{nullptr};
    CUfunction triton_red_fused__safe_softmax_exp_prepare_softmax_online_sub_9{nullptr};
};
}  // namespace



AOTInductorModel::AOTInductorModel(std::shared_ptr<ConstantMap> constants_map,
                                   std::shared_ptr<std::vector<ConstantHandle>> constants_array,
                                   const std::string& device_str,
                                   std::optional<std::string> cubin_dir)
    : AOTInductorModelBase(1,
                           1,
                           17,
                           device_str,
                           std::move(cubin_dir),
                           true) {
    inputs_info_[0].name = "arg18_1";
    constants_info_[0].name = "conv_in_weight";
    constants_info_[0].dtype = cached_torch_dtype_float16;
    constants_info_[0].device_type = cached_torch_device_type_cuda;
    constants_info_[0].offset = 0;
    constants_info_[0].data_size = 9216;
    constants_info_[0].from_folded = false;
    constants_info_[0].type = static_cast<int32_t>(torch::aot_inductor::ConstantType::Parameter);
    constants_info_[0].shape = {128, 4, 3, 3};
    constants_info_[0].stride = {36, 9, 3, 1};
    constants_info_[0].layout = static_cast<int32_t>(cached_torch_layout_strided);
    constants_info_[0].original_fqn = "conv_in.weight";
    constants_info_[1].name = "conv_in_bias";
    constants_info_[1].dtype = cached_torch_dtype_float16;
    constants_info_[1].device_type = cached_torch_device_type_cuda;
    constants_info_[1].offset = 0;
    constants_info_[1].data_size = 256;
    constants_info_[1].from_folded = false;
    constants_info_[1].type = static_cast<int32_t>(torch::aot_inductor::ConstantType::Parameter);
    constants_info_[1].shape = {128};
    constants_info_[1].stride = {1};
    constants_info_[1].layout = static_cast<int32_t>(cached_torch_layout_strided);
    constants_info_[1].original_fqn = "conv_in.bias";
    constants_info_[2].name = "norm_weight";
    constants_info_[2].dtype = cached_torch_dtype_float16;
    constants_info_[2].device_type = cached_torch_device_type_cuda;
    constants_info_[2].offset = 0;
    constants_info_[2].data_size = 256;
    constants_info_[2].from_folded = false;
    constants_info_[2].type = static_cast<int32_t>(torch::aot_inductor::ConstantType::Parameter);
    constants_info_[2].shape = {128};
    constants_info_[2].stride = {1};
    constants_info_[2].layout = static_cast<int32_t>(cached_torch_layout_strided);
    constants_info_[2].original_fqn = "norm.weight";
    constants_info_[3].name = "norm_bias";
    constants_info_[3].dtype = cached_torch_dtype_float16;
    constants_info_[3].device_type = cached_torch_device_type_cuda;
    constants_info_[3].offset = 0;
    constants_info_[3].data_size = 256;
    constants_info_[3].from_folded = false;
    constants_info_[3].type = static_cast<int32_t>(torch::aot_inductor::ConstantType::Parameter);
    constants_info_[3].shape = {128};
    constants_info_[3].stride = {1};
    constants_info_[3].layout = static_cast<int32_t>(cached_torch_layout_strided);
    constants_info_[3].original_fqn = "norm.bias";
    constants_info_[4].name = "conv2_weight";
    constants_info_[4].dtype = cached_torch_dtype_float16;
    constants_info_[4].device_type = cached_torch_device_type_cuda;
    constants_info_[4].offset = 0;
    constants_info_[4].data_size = 294912;
    constants_info_[4].from_folded = false;
    constants_info_[4].type = static_cast<int32_t>(torch::aot_inductor::ConstantType::Parameter);
    constants_info_[4].shape = {128, 128, 3, 3};
    constants_info_[4].stride = {1152, 9, 3, 1};
    constants_info_[4].layout = static_cast<int32_t>(cached_torch_layout_strided);
    constants_info_[4].original_fqn = "conv2.weight";
    constants_info_[5].name = "conv2_bias";
    constants_info_[5].dtype = cached_torch_dtype_float16;
    constants_info_[5].device_type = cached_torch_device_type_cuda;
    constants_info_[5].offset = 0;
    constants_info_[5].data_size = 256;
    constants_info_[5].from_folded = false;
    constants_info_[5].type = static_cast<int32_t>(torch::aot_inductor::ConstantType::Parameter);
    constants_info_[5].shape = {128};
    constants_info_[5].stride = {1};
    constants_info_[5].layout = static_cast<int32_t>(cached_torch_layout_strided);
    constants_info_[5].original_fqn = "conv2.bias";
    constants_info_[6].name = "q_weight";
    constants_info_[6].dtype = cached_torch_dtype_float16;
    constants_info_[6].device_type = cached_torch_device_type_cuda;
    constants_info_[6].offset = 0;
    constants_info_[6].data_size = 32768;
    constants_info_[6].from_folded = false;
    constants_info_[6].type = static_cast<int32_t>(torch::aot_inductor::ConstantType::Parameter);
    constants_info_[6].shape = {128, 128};
    constants_info_[6].stride = {128, 1};
    constants_info_[6].layout = static_cast<int32_t>(cached_torch_layout_strided);
    constants_info_[6].original_fqn = "q.weight";
    constants_info_[7].name = "q_bias";
    constants_info_[7].dtype = cached_torch_dtype_float16;
    constants_info_[7].device_type = cached_torch_device_type_cuda;
    constants_info_[7].offset = 0;
    constants_info_[7].data_size = 256;
    constants_info_[7].from_folded = false;
    constants_info_[7].type = static_cast<int32_t>(torch::aot_inductor::ConstantType::Parameter);
    constants_info_[7].shape = {128};
    constants_info_[7].stride = {1};
    constants_info_[7].layout = static_cast<int32_t>(cached_torch_layout_strided);
    constants_info_[7].original_fqn = "q.bias";
    constants_info_[8].name = "k_weight";
    constants_info_[8].dtype = cached_torch_dtype_float16;
    constants_info_[8].device_type = cached_torch_device_type_cuda;
    constants_info_[8].offset = 0;
    constants_info_[8].data_size = 32768;
    constants_info_[8].from_folded = false;
    constants_info_[8].type = static_cast<int32_t>(torch::aot_inductor::ConstantType::Parameter);
    constants_info_[8].shape = {128, 128};
    constants_info_[8].stride = {128, 1};
    constants_info_[8].layout = static_cast<int32_t>(cached_torch_layout_strided);
    constants_info_[8].original_fqn = "k.weight";
    constants_info_[9].name = "k_bias";
    constants_info_[9].dtype = cached_torch_dtype_float16;
    constants_info_[9].device_type = cached_torch_device_type_cuda;
    constants_info_[9].offset = 0;
    constants_info_[9].data_size = 256;
    constants_info_[9].from_folded = false;
    constants_info_[9].type = static_cast<int32_t>(torch::aot_inductor::ConstantType::Parameter);
    constants_info_[9].shape = {128};
    constants_info_[9].stride = {1};
    constants_info_[9].layout = static_cast<int32_t>(cached_torch_layout_strided);
    constants_info_[9].original_fqn = "k.bias";
    constants_info_[10].name = "v_weight";
    constants_info_[10].dtype = cached_torch_dtype_float16;
    constants_info_[10].device_type = cached_torch_device_type_cuda;
    constants_info_[10].offset = 0;
    constants_info_[10].data_size = 32768;
    constants_info_[10].from_folded = false;
    constants_info_[10].type = static_cast<int32_t>(torch::aot_inductor::ConstantType::Parameter);
    constants_info_[10].shape = {128, 128};
    constants_info_[10].stride = {128, 1};
    constants_info_[10].layout = static_cast<int32_t>(cached_torch_layout_strided);
    constants_info_[10].original_fqn = "v.weight";
    constants_info_[11].name = "v_bias";
    constants_info_[11].dtype = cached_torch_dtype_float16;
    constants_info_[11].device_type = cached_torch_device_type_cuda;
    constants_info_[11].offset = 0;
    constants_info_[11].data_size = 256;
    constants_info_[11].from_folded = false;
    constants_info_[11].type = static_cast<int32_t>(torch::aot_inductor::ConstantType::Parameter);
    constants_info_[11].shape = {128};
    constants_info_[11].stride = {1};
    constants_info_[11].layout = static_cast<int32_t>(cached_torch_layout_strided);
    constants_info_[11].original_fqn = "v.bias";
    constants_info_[12].name = "ff1_weight";
    constants_info_[12].dtype = cached_torch_dtype_float16;
    constants_info_[12].device_type = cached_torch_device_type_cuda;
    constants_info_[12].offset = 0;
    constants_info_[12].data_size = 131072;
    constants_info_[12].from_folded = false;
    constants_info_[12].type = static_cast<int32_t>(torch::aot_inductor::ConstantType::Parameter);
    constants_info_[12].shape = {512, 128};
    constants_info_[12].stride = {128, 1};
    constants_info_[12].layout = static_cast<int32_t>(cached_torch_layout_strided);
    constants_info_[12].original_fqn = "ff1.weight";
    constants_info_[13].name = "ff1_bias";
    constants_info_[13].dtype = cached_torch_dtype_float16;
    constants_info_[13].device_type = cached_torch_device_type_cuda;
    constants_info_[13].offset = 0;
    constants_info_[13].data_size = 1024;
    constants_info_[13].from_folded = false;
    constants_info_[13].type = static_cast<int32_t>(torch::aot_inductor::ConstantType::Parameter);
    constants_info_[13].shape = {512};
    constants_info_[13].stride = {1};
    constants_info_[13].layout = static_cast<int32_t>(cached_torch_layout_strided);
    constants_info_[13].original_fqn = "ff1.bias";
    constants_info_[14].name = "ff2_weight";
    constants_info_[14].dtype = cached_torch_dtype_float16;
    constants_info_[14].device_type = cached_torch_device_type_cuda;
    constants_info_[14].offset = 0;
    constants_info_[14].data_size = 131072;
    constants_info_[14].from_folded = false;
    constants_info_[14].type = static_cast<int32_t>(torch::aot_inductor::ConstantType::Parameter);
    constants_info_[14].shape = {128, 512};
    constants_info_[14].stride = {512, 1};
    constants_info_[14].layout = static_cast<int32_t>(cached_torch_layout_strided);
    constants_info_[14].original_fqn = "ff2.weight";
    constants_info_[15].name = "ff2_bias";
    constants_info_[15].dtype = cached_torch_dtype_float16;
    constants_info_[15].device_type = cached_torch_device_type_cuda;
    constants_info_[15].offset = 0;
    constants_info_[15].data_size = 256;
    constants_info_[15].from_folded = false;
    constants_info_[15].type = static_cast<int32_t>(torch::aot_inductor::ConstantType::Parameter);
    constants_info_[15].shape = {128};
    constants_info_[15].stride = {1};
    constants_info_[15].layout = static_cast<int32_t>(cached_torch_layout_strided);
    constants_info_[15].original_fqn = "ff2.bias";
    constants_info_[16].name = "conv_out_weight";
    constants_info_[16].dtype = cached_torch_dtype_float16;
    constants_info_[16].device_type = cached_torch_device_type_cuda;
    constants_info_[16].offset = 0;
    constants_info_[16].data_size = 9216;
    constants_info_[16].from_folded = false;
    constants_info_[16].type = static_cast<int32_t>(torch::aot_inductor::ConstantType::Parameter);
    constants_info_[16].shape = {4, 128, 3, 3};
    constants_info_[16].stride = {1152, 9, 3, 1};
    constants_info_[16].layout = static_cast<int32_t>(cached_torch_layout_strided);
    constants_info_[16].original_fqn = "conv_out.weight";
    update_constants_map(std::move(constants_map));
    update_constants_array(std::move(constants_array));
    in_spec_ = R"([1, {"type": "builtins.tuple", "context": "null", "children_spec": [{"type": "builtins.tuple", "context": "null", "children_spec": [{"type": null, "context": null, "children_spec": []}]}, {"type": "builtins.dict", "context": "[]", "children_spec": []}]}])";
    out_spec_ = R"([1, {"type": null, "context": null, "children_spec": []}])";
    outputs_info_[0].name = "output0";
    this->kernels_ = std::make_unique<AOTInductorModelKernels>();
}

std::unordered_map<std::string, AtenTensorHandle> AOTInductorModel::const_run_impl(
    DeviceStreamType stream,
    AOTIProxyExecutorHandle proxy_executor,
    bool initialization
) {

    if (!initialization) {
        std::cerr << "[WARNING] Calling constant_folding in model, but compiled with config: "
                  << "aot_inductor.use_runtime_constant_folding=False\n";
    }
    return {};
}
} // namespace torch::aot_inductor
using namespace torch::aot_inductor;

template <typename in_ptr0_type_, typename out_ptr0_type_, typename kernels_type_>
static inline void call_triton_poi_fused_convolution_0(
    const in_ptr0_type_& in_ptr0,
    const out_ptr0_type_& out_ptr0,
    int64_t ynumel,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    kernels_type_& kernels_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    /*
    async_compile.triton('triton_poi_fused_convolution_0', '''
    import triton
    import triton.language as tl

    from torch._inductor.runtime import triton_helpers, triton_heuristics
    from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
    from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
    triton_helpers.set_driver_to_gpu()

    @triton_heuristics.pointwise(
        size_hints={'y': 8, 'x': 4096}, tile_hint=TileHint.SQUARE,
        filename=__file__,
        triton_meta={'signature': {'in_ptr0': '*fp16', 'out_ptr0': '*fp16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
        inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_convolution_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 73728, 'x': 36864}},
        min_elem_per_thread=0
    )
    @triton.jit
    def triton_poi_fused_convolution_0(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
        ynumel = 8
        xnumel = 2304
        yoffset = tl.program_id(1) * YBLOCK
        yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
        ymask = yindex < ynumel
        xoffset = tl.program_id(0) * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
        xmask = xindex < xnumel
        x2 = xindex
        y3 = yindex
        y0 = (yindex % 4)
        y1 = yindex // 4
        tmp0 = tl.load(in_ptr0 + (x2 + 2304*y3), xmask & ymask, eviction_policy='evict_last').to(tl.float32)
        tl.store(out_ptr0 + (y0 + 4*x2 + 9216*y1), tmp0, xmask & ymask)
    ''', device_str='cuda')
    */
    uint32_t grid_0 = ((xnumel + (128 - 1)) / (128));
    uint32_t grid_1 = ((ynumel + (8 - 1)) / (8));
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (kernels_.triton_poi_fused_convolution_0 == nullptr) {
        kernels_.triton_poi_fused_convolution_0 = loadKernel("/tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/cyyqfomsgnbglkqmhfgyfcooeprzcayqirwru4cqnsyhcxydmyiw.cubin", "triton_poi_fused_convolution_0", 2048, cubin_dir_); 
    }
    CUdeviceptr var_0 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_1 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_2 = ynumel;
    int32_t var_3 = xnumel;
    CUdeviceptr global_scratch_scratch_4 = 0;
    CUdeviceptr profile_scratch_scratch_5 = 0;
    void* kernel_args_[] = {&var_0, &var_1, &var_2, &var_3, &global_scratch_scratch_4, &profile_scratch_scratch_5};
    launchKernel(kernels_.triton_poi_fused_convolution_0, grid_0, grid_1, grid_2, 4, 2048, kernel_args_, stream_);
}

template <typename in_ptr0_type_, typename out_ptr0_type_, typename kernels_type_>
static inline void call_triton_poi_fused_convolution_1(
    const in_ptr0_type_& in_ptr0,
    const out_ptr0_type_& out_ptr0,
    int64_t ynumel,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    kernels_type_& kernels_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    /*
    async_compile.triton('triton_poi_fused_convolution_1', '''
    import triton
    import triton.language as tl

    from torch._inductor.runtime import triton_helpers, triton_heuristics
    from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
    from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
    triton_helpers.set_driver_to_gpu()

    @triton_heuristics.pointwise(
        size_hints={'y': 512, 'x': 16}, tile_hint=TileHint.SQUARE,
        filename=__file__,
        triton_meta={'signature': {'in_ptr0': '*fp16', 'out_ptr0': '*fp16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
        inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_convolution_1', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 18432, 'x': 9216}},
        min_elem_per_thread=0
    )
    @triton.jit
    def triton_poi_fused_convolution_1(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
        ynumel = 512
        xnumel = 9
        yoffset = tl.program_id(1) * YBLOCK
        yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
        ymask = yindex < ynumel
        xoffset = tl.program_id(0) * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
        xmask = xindex < xnumel
        x2 = xindex
        y3 = yindex
        y0 = (yindex % 4)
        y1 = yindex // 4
        tmp0 = tl.load(in_ptr0 + (x2 + 9*y3), xmask & ymask, eviction_policy='evict_last').to(tl.float32)
        tl.store(out_ptr0 + (y0 + 4*x2 + 36*y1), tmp0, xmask & ymask)
    ''', device_str='cuda')
    */
    uint32_t grid_0 = ((xnumel + (16 - 1)) / (16));
    uint32_t grid_1 = ((ynumel + (64 - 1)) / (64));
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (kernels_.triton_poi_fused_convolution_1 == nullptr) {
        kernels_.triton_poi_fused_convolution_1 = loadKernel("/tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/cdlxoawsesotkx3fp4b5eoirlojhuqvap6emzhxymb4df6xbv2xs.cubin", "triton_poi_fused_convolution_1", 2048, cubin_dir_); 
    }
    CUdeviceptr var_6 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_7 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_8 = ynumel;
    int32_t var_9 = xnumel;
    CUdeviceptr global_scratch_scratch_10 = 0;
    CUdeviceptr profile_scratch_scratch_11 = 0;
    void* kernel_args_[] = {&var_6, &var_7, &var_8, &var_9, &global_scratch_scratch_10, &profile_scratch_scratch_11};
    launchKernel(kernels_.triton_poi_fused_convolution_1, grid_0, grid_1, grid_2, 4, 2048, kernel_args_, stream_);
}

template <typename in_ptr0_type_, typename in_ptr1_type_, typename out_ptr0_type_, typename out_ptr1_type_, typename out_ptr2_type_, typename kernels_type_>
static inline void call_triton_per_fused_convolution_native_group_norm_2(
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
    const out_ptr0_type_& out_ptr0,
    const out_ptr1_type_& out_ptr1,
    const out_ptr2_type_& out_ptr2,
    int64_t xnumel,
    int64_t r0_numel,
    int32_t device_idx_,
    cudaStream_t stream_,
    kernels_type_& kernels_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    /*
    async_compile.triton('triton_per_fused_convolution_native_group_norm_2', '''
    import triton
    import triton.language as tl

    from torch._inductor.runtime import triton_helpers, triton_heuristics
    from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
    from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
    triton_helpers.set_driver_to_gpu()

    @triton_heuristics.persistent_reduction(
        size_hints={'x': 8192, 'r0_': 128},
        reduction_hint=ReductionHint.INNER,
        filename=__file__,
        triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
        inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_convolution_native_group_norm_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 2, 'num_store': 3, 'num_reduction': 3, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 111616, 'r0_': 0}}
    )
    @triton.jit
    def triton_per_fused_convolution_native_group_norm_2(in_ptr0, in_ptr1, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
        xnumel = 4640
        r0_numel = 128
        R0_BLOCK: tl.constexpr = 128
        rnumel = r0_numel
        RBLOCK: tl.constexpr = R0_BLOCK
        xoffset = tl.program_id(0) * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
        xmask = xindex < xnumel
        r0_index = tl.arange(0, R0_BLOCK)[None, :]
        r0_offset = 0
        r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
        roffset = r0_offset
        rindex = r0_index
        r0_4 = r0_index
        x0 = (xindex % 58)
        x1 = ((xindex // 58) % 5)
        x2 = ((xindex // 290) % 8)
        x3 = xindex // 2320
        x7 = (xindex % 2320)
        tmp0 = r0_4 + 128*x0
        tmp1 = tl.full([1, 1], 7373, tl.int32)
        tmp2 = tmp0 < tmp1
        tmp3 = r0_4 + 128*x0 + 7373*x1
        tmp4 = tl.full([1, 1], 36864, tl.int32)
        tmp5 = tmp3 < tmp4
        tmp6 = tmp5 & tmp2
        tmp7 = tl.load(in_ptr0 + (16*x2 + 128*(((r0_4 + 128*x0 + 7373*x1) % 2304)) + 294912*x3 + ((((r0_4 + 128*x0 + 7373*x1) // 2304) % 16))), tmp6 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp8 = tl.load(in_ptr1 + (16*x2 + ((((r0_4 + 128*x0 + 7373*x1) // 2304) % 16))), tmp6 & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp9 = tmp7 + tmp8
        tmp10 = tmp9.to(tl.float32)
        tmp11 = tl.full(tmp10.shape, 0, tmp10.dtype)
        tmp12 = tl.where(tmp6, tmp10, tmp11)
        tmp13 = tl.full(tmp12.shape, 0, tmp12.dtype)
        tmp14 = tl.where(tmp2, tmp12, tmp13)
        tmp15 = tl.full([1, 1], 0.0, tl.float32)
        tmp16 = tl.full(tmp15.shape, 0, tmp15.dtype)
        tmp17 = tl.where(tmp6, tmp15, tmp16)
        tmp18 = tl.full(tmp17.shape, 0, tmp17.dtype)
        tmp19 = tl.where(tmp2, tmp17, tmp18)
        tmp20 = tl.full([1, 1], 1.0, tl.float32)
        tmp21 = tl.full(tmp20.shape, 0, tmp20.dtype)
        tmp22 = tl.where(tmp6, tmp20, tmp21)
        tmp23 = tl.full(tmp22.shape, 0, tmp22.dtype)
        tmp24 = tl.where(tmp2, tmp22, tmp23)
        tmp25 = tl.broadcast_to(tmp14, [XBLOCK, R0_BLOCK])
        tmp26 = tl.broadcast_to(tmp19, [XBLOCK, R0_BLOCK])
        tmp27 = tl.broadcast_to(tmp24, [XBLOCK, R0_BLOCK])
        tmp29 = tl.where(xmask, tmp25, 0)
        tmp30 = tl.where(xmask, tmp26, 0)
        tmp31 = tl.where(xmask, tmp27, 0)
        tmp32, tmp33, tmp34 = triton_helpers.welford(tmp29, tmp30, tmp31, 1)
        tmp35 = tmp32[:, None]
        tmp36 = tmp33[:, None]
        tmp37 = tmp34[:, None]
        tl.store(out_ptr0 + (x7 + 2336*x3), tmp35, xmask)
        tl.store(out_ptr1 + (x7 + 2336*x3), tmp36, xmask)
        tl.store(out_ptr2 + (x7 + 2336*x3), tmp37, xmask)
    ''', device_str='cuda')
    */
    uint32_t grid_0 = ((xnumel + (8 - 1)) / (8));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (kernels_.triton_per_fused_convolution_native_group_norm_2 == nullptr) {
        kernels_.triton_per_fused_convolution_native_group_norm_2 = loadKernel("/tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/cffjzy3i3mgrb3ma7hesfb64q6ppoanx25nbglnal2opzx5mhjlj.cubin", "triton_per_fused_convolution_native_group_norm_2", 192, cubin_dir_); 
    }
    CUdeviceptr var_12 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_13 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_14 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    CUdeviceptr var_15 = reinterpret_cast<CUdeviceptr>(out_ptr1.data_ptr());
    CUdeviceptr var_16 = reinterpret_cast<CUdeviceptr>(out_ptr2.data_ptr());
    int32_t var_17 = xnumel;
    int32_t var_18 = r0_numel;
    CUdeviceptr global_scratch_scratch_19 = 0;
    CUdeviceptr profile_scratch_scratch_20 = 0;
    void* kernel_args_[] = {&var_12, &var_13, &var_14, &var_15, &var_16, &var_17, &var_18, &global_scratch_scratch_19, &profile_scratch_scratch_20};
    launchKernel(kernels_.triton_per_fused_convolution_native_group_norm_2, grid_0, grid_1, grid_2, 2, 192, kernel_args_, stream_);
}

template <typename in_ptr0_type_, typename in_ptr1_type_, typename in_ptr2_type_, typename out_ptr0_type_, typename out_ptr1_type_, typename out_ptr2_type_, typename kernels_type_>
static inline void call_triton_per_fused_convolution_native_group_norm_3(
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
    const in_ptr2_type_& in_ptr2,
    const out_ptr0_type_& out_ptr0,
    const out_ptr1_type_& out_ptr1,
    const out_ptr2_type_& out_ptr2,
    int64_t xnumel,
    int64_t r0_numel,
    int32_t device_idx_,
    cudaStream_t stream_,
    kernels_type_& kernels_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    /*
    async_compile.triton('triton_per_fused_convolution_native_group_norm_3', '''
    import triton
    import triton.language as tl

    from torch._inductor.runtime import triton_helpers, triton_heuristics
    from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
    from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
    triton_helpers.set_driver_to_gpu()

    @triton_heuristics.persistent_reduction(
        size_hints={'x': 128, 'r0_': 64},
        reduction_hint=ReductionHint.INNER,
        filename=__file__,
        triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
        inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_convolution_native_group_norm_3', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 3, 'num_store': 3, 'num_reduction': 3, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 1920, 'r0_': 55680}}
    )
    @triton.jit
    def triton_per_fused_convolution_native_group_norm_3(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
        xnumel = 80
        r0_numel = 58
        R0_BLOCK: tl.constexpr = 64
        rnumel = r0_numel
        RBLOCK: tl.constexpr = R0_BLOCK
        xoffset = tl.program_id(0) * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
        xmask = xindex < xnumel
        r0_index = tl.arange(0, R0_BLOCK)[None, :]
        r0_offset = 0
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        x0 = (xindex % 40)
        x1 = xindex // 40
        x3 = xindex
        tmp0 = tl.load(in_ptr0 + (r0_2 + 58*x0 + 2336*x1), r0_mask & xmask, other=0.0)
        tmp1 = tl.load(in_ptr1 + (r0_2 + 58*x0 + 2336*x1), r0_mask & xmask, other=0.0)
        tmp2 = tl.load(in_ptr2 + (r0_2 + 58*x0 + 2336*x1), r0_mask & xmask, other=0.0)
        tmp3 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp4 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        tmp5 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
        tmp7 = tl.where(r0_mask & xmask, tmp3, 0)
        tmp8 = tl.where(r0_mask & xmask, tmp4, 0)
        tmp9 = tl.where(r0_mask & xmask, tmp5, 0)
        tmp10, tmp11, tmp12 = triton_helpers.welford(tmp7, tmp8, tmp9, 1)
        tmp13 = tmp10[:, None]
        tmp14 = tmp11[:, None]
        tmp15 = tmp12[:, None]
        tl.store(out_ptr0 + (x3), tmp13, xmask)
        tl.store(out_ptr1 + (x3), tmp14, xmask)
        tl.store(out_ptr2 + (x3), tmp15, xmask)
    ''', device_str='cuda')
    */
    uint32_t grid_0 = xnumel;
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (kernels_.triton_per_fused_convolution_native_group_norm_3 == nullptr) {
        kernels_.triton_per_fused_convolution_native_group_norm_3 = loadKernel("/tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/cwm4cn2q27whuwpbfxhxi3gvir2qckre55znbr4attohefjqaljc.cubin", "triton_per_fused_convolution_native_group_norm_3", 24, cubin_dir_); 
    }
    CUdeviceptr var_21 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_22 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_23 = reinterpret_cast<CUdeviceptr>(in_ptr2.data_ptr());
    CUdeviceptr var_24 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    CUdeviceptr var_25 = reinterpret_cast<CUdeviceptr>(out_ptr1.data_ptr());
    CUdeviceptr var_26 = reinterpret_cast<CUdeviceptr>(out_ptr2.data_ptr());
    int32_t var_27 = xnumel;
    int32_t var_28 = r0_numel;
    CUdeviceptr global_scratch_scratch_29 = 0;
    CUdeviceptr profile_scratch_scratch_30 = 0;
    void* kernel_args_[] = {&var_21, &var_22, &var_23, &var_24, &var_25, &var_26, &var_27, &var_28, &global_scratch_scratch_29, &profile_scratch_scratch_30};
    launchKernel(kernels_.triton_per_fused_convolution_native_group_norm_3, grid_0, grid_1, grid_2, 2, 24, kernel_args_, stream_);
}

template <typename in_ptr0_type_, typename in_ptr1_type_, typename in_ptr2_type_, typename out_ptr0_type_, typename out_ptr1_type_, typename kernels_type_>
static inline void call_triton_per_fused_convolution_native_group_norm_4(
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
    const in_ptr2_type_& in_ptr2,
    const out_ptr0_type_& out_ptr0,
    const out_ptr1_type_& out_ptr1,
    int64_t xnumel,
    int64_t r0_numel,
    int32_t device_idx_,
    cudaStream_t stream_,
    kernels_type_& kernels_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    /*
    async_compile.triton('triton_per_fused_convolution_native_group_norm_4', '''
    import triton
    import triton.language as tl

    from torch._inductor.runtime import triton_helpers, triton_heuristics
    from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
    from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
    triton_helpers.set_driver_to_gpu()

    @triton_heuristics.persistent_reduction(
        size_hints={'x': 16, 'r0_': 8},
        reduction_hint=ReductionHint.INNER,
        filename=__file__,
        triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
        inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_convolution_native_group_norm_4', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 3, 'num_store': 2, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 256, 'r0_': 600}}
    )
    @triton.jit
    def triton_per_fused_convolution_native_group_norm_4(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
        xnumel = 16
        r0_numel = 5
        R0_BLOCK: tl.constexpr = 8
        rnumel = r0_numel
        RBLOCK: tl.constexpr = R0_BLOCK
        xoffset = tl.program_id(0) * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
        xmask = xindex < xnumel
        r0_index = tl.arange(0, R0_BLOCK)[None, :]
        r0_offset = 0
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        x0 = xindex
        tmp0 = tl.load(in_ptr0 + (r0_1 + 5*x0), r0_mask & xmask, other=0.0)
        tmp1 = tl.load(in_ptr1 + (r0_1 + 5*x0), r0_mask & xmask, other=0.0)
        tmp2 = tl.load(in_ptr2 + (r0_1 + 5*x0), r0_mask & xmask, other=0.0)
        tmp3 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp4 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        tmp5 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
        tmp7 = tl.where(r0_mask & xmask, tmp3, 0)
        tmp8 = tl.where(r0_mask & xmask, tmp4, 0)
        tmp9 = tl.where(r0_mask & xmask, tmp5, 0)
        tmp10, tmp11, tmp12 = triton_helpers.welford(tmp7, tmp8, tmp9, 1)
        tmp13 = tmp10[:, None]
        tmp14 = tmp11[:, None]
        tmp15 = tmp12[:, None]
        tl.store(out_ptr0 + (x0), tmp13, xmask)
        tl.store(out_ptr1 + (x0), tmp14, xmask)
    ''', device_str='cuda')
    */
    uint32_t grid_0 = xnumel;
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (kernels_.triton_per_fused_convolution_native_group_norm_4 == nullptr) {
        kernels_.triton_per_fused_convolution_native_group_norm_4 = loadKernel("/tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/crgngnldlalnyz6flpwymlkmlpvddwajy5uv4k72x5kgbb32moxv.cubin", "triton_per_fused_convolution_native_group_norm_4", 0, cubin_dir_); 
    }
    CUdeviceptr var_31 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_32 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_33 = reinterpret_cast<CUdeviceptr>(in_ptr2.data_ptr());
    CUdeviceptr var_34 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    CUdeviceptr var_35 = reinterpret_cast<CUdeviceptr>(out_ptr1.data_ptr());
    int32_t var_36 = xnumel;
    int32_t var_37 = r0_numel;
    CUdeviceptr global_scratch_scratch_38 = 0;
    CUdeviceptr profile_scratch_scratch_39 = 0;
    void* kernel_args_[] = {&var_31, &var_32, &var_33, &var_34, &var_35, &var_36, &var_37, &global_scratch_scratch_38, &profile_scratch_scratch_39};
    launchKernel(kernels_.triton_per_fused_convolution_native_group_norm_4, grid_0, grid_1, grid_2, 2, 0, kernel_args_, stream_);
}

template <typename in_ptr0_type_, typename in_ptr1_type_, typename in_ptr2_type_, typename in_ptr3_type_, typename in_ptr4_type_, typename in_ptr5_type_, typename out_ptr1_type_, typename kernels_type_>
static inline void call_triton_poi_fused_convolution_native_group_norm_silu_5(
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
    const in_ptr2_type_& in_ptr2,
    const in_ptr3_type_& in_ptr3,
    const in_ptr4_type_& in_ptr4,
    const in_ptr5_type_& in_ptr5,
    const out_ptr1_type_& out_ptr1,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    kernels_type_& kernels_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    /*
    async_compile.triton('triton_poi_fused_convolution_native_group_norm_silu_5', '''
    import triton
    import triton.language as tl

    from torch._inductor.runtime import triton_helpers, triton_heuristics
    from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
    from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
    triton_helpers.set_driver_to_gpu()

    @triton_heuristics.pointwise(
        size_hints={'x': 1048576}, 
        filename=__file__,
        triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp16', 'in_ptr5': '*fp16', 'out_ptr1': '*fp16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
        inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_convolution_native_group_norm_silu_5', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 3539840}},
        min_elem_per_thread=0
    )
    @triton.jit
    def triton_poi_fused_convolution_native_group_norm_silu_5(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr1, xnumel, XBLOCK : tl.constexpr):
        xnumel = 589824
        xoffset = tl.program_id(0) * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = tl.full([XBLOCK], True, tl.int1)[:]
        x3 = xindex
        x0 = (xindex % 128)
        x2 = xindex // 294912
        tmp0 = tl.load(in_ptr0 + (x3), None).to(tl.float32)
        tmp1 = tl.load(in_ptr1 + (x0), None, eviction_policy='evict_last').to(tl.float32)
        tmp4 = tl.load(in_ptr2 + (8*x2 + (x0 // 16)), None, eviction_policy='evict_last')
        tmp6 = tl.load(in_ptr3 + (8*x2 + (x0 // 16)), None, eviction_policy='evict_last')
        tmp13 = tl.load(in_ptr4 + (x0), None, eviction_policy='evict_last').to(tl.float32)
        tmp16 = tl.load(in_ptr5 + (x0), None, eviction_policy='evict_last').to(tl.float32)
        tmp2 = tmp0 + tmp1
        tmp3 = tmp2.to(tl.float32)
        tmp5 = tmp3 - tmp4
        tmp7 = tl.full([1], 36864.0, tl.float32)
        tmp8 = (tmp6 / tmp7)
        tmp9 = tl.full([1], 1e-05, tl.float32)
        tmp10 = tmp8 + tmp9
        tmp11 = libdevice.rsqrt(tmp10)
        tmp12 = tmp5 * tmp11
        tmp14 = tmp13.to(tl.float32)
        tmp15 = tmp12 * tmp14
        tmp17 = tmp16.to(tl.float32)
        tmp18 = tmp15 + tmp17
        tmp19 = -tmp18
        tmp20 = libdevice.exp(tmp19)
        tmp21 = tl.full([1], 1.0, tl.float32)
        tmp22 = tmp20 + tmp21
        tmp23 = (tmp18 / tmp22)
        tmp24 = tmp23.to(tl.float32)
        tl.store(out_ptr1 + (x3), tmp24, None)
    ''', device_str='cuda')
    */
    uint32_t grid_0 = ((xnumel + (1024 - 1)) / (1024));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (kernels_.triton_poi_fused_convolution_native_group_norm_silu_5 == nullptr) {
        kernels_.triton_poi_fused_convolution_native_group_norm_silu_5 = loadKernel("/tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/cin7l72qyk4a53imsw42qiw5jmzaq5aytx5yvtxyq2fvlsvupraa.cubin", "triton_poi_fused_convolution_native_group_norm_silu_5", 0, cubin_dir_); 
    }
    CUdeviceptr var_40 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_41 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_42 = reinterpret_cast<CUdeviceptr>(in_ptr2.data_ptr());
    CUdeviceptr var_43 = reinterpret_cast<CUdeviceptr>(in_ptr3.data_ptr());
    CUdeviceptr var_44 = reinterpret_cast<CUdeviceptr>(in_ptr4.data_ptr());
    CUdeviceptr var_45 = reinterpret_cast<CUdeviceptr>(in_ptr5.data_ptr());
    CUdeviceptr var_46 = reinterpret_cast<CUdeviceptr>(out_ptr1.data_ptr());
    int32_t var_47 = xnumel;
    CUdeviceptr global_scratch_scratch_48 = 0;
    CUdeviceptr profile_scratch_scratch_49 = 0;
    void* kernel_args_[] = {&var_40, &var_41, &var_42, &var_43, &var_44, &var_45, &var_46, &var_47, &global_scratch_scratch_48, &profile_scratch_scratch_49};
    launchKernel(kernels_.triton_poi_fused_convolution_native_group_norm_silu_5, grid_0, grid_1, grid_2, 4, 0, kernel_args_, stream_);
}

template <typename in_ptr0_type_, typename out_ptr0_type_, typename kernels_type_>
static inline void call_triton_poi_fused_convolution_silu_6(
    const in_ptr0_type_& in_ptr0,
    const out_ptr0_type_& out_ptr0,
    int64_t ynumel,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    kernels_type_& kernels_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    /*
    async_compile.triton('triton_poi_fused_convolution_silu_6', '''
    import triton
    import triton.language as tl

    from torch._inductor.runtime import triton_helpers, triton_heuristics
    from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
    from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
    triton_helpers.set_driver_to_gpu()

    @triton_heuristics.pointwise(
        size_hints={'y': 16384, 'x': 16}, tile_hint=TileHint.SQUARE,
        filename=__file__,
        triton_meta={'signature': {'in_ptr0': '*fp16', 'out_ptr0': '*fp16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
        inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_convolution_silu_6', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 589824, 'x': 294912}},
        min_elem_per_thread=0
    )
    @triton.jit
    def triton_poi_fused_convolution_silu_6(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
        ynumel = 16384
        xnumel = 9
        yoffset = tl.program_id(1) * YBLOCK
        yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
        ymask = tl.full([YBLOCK], True, tl.int1)[:, None]
        xoffset = tl.program_id(0) * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
        xmask = xindex < xnumel
        x2 = xindex
        y3 = yindex
        y0 = (yindex % 128)
        y1 = yindex // 128
        tmp0 = tl.load(in_ptr0 + (x2 + 9*y3), xmask, eviction_policy='evict_last').to(tl.float32)
        tl.store(out_ptr0 + (y0 + 128*x2 + 1152*y1), tmp0, xmask)
    ''', device_str='cuda')
    */
    uint32_t grid_0 = ((xnumel + (16 - 1)) / (16));
    uint32_t grid_1 = ((ynumel + (64 - 1)) / (64));
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (kernels_.triton_poi_fused_convolution_silu_6 == nullptr) {
        kernels_.triton_poi_fused_convolution_silu_6 = loadKernel("/tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/cwv3svjrl7qllzh2qqhrwunajr7plp5dguiabl7olhp7fypyey6z.cubin", "triton_poi_fused_convolution_silu_6", 2048, cubin_dir_); 
    }
    CUdeviceptr var_50 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_51 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_52 = ynumel;
    int32_t var_53 = xnumel;
    CUdeviceptr global_scratch_scratch_54 = 0;
    CUdeviceptr profile_scratch_scratch_55 = 0;
    void* kernel_args_[] = {&var_50, &var_51, &var_52, &var_53, &global_scratch_scratch_54, &profile_scratch_scratch_55};
    launchKernel(kernels_.triton_poi_fused_convolution_silu_6, grid_0, grid_1, grid_2, 4, 2048, kernel_args_, stream_);
}

template <typename in_ptr0_type_, typename in_ptr1_type_, typename in_ptr2_type_, typename out_ptr0_type_, typename out_ptr1_type_, typename out_ptr2_type_, typename kernels_type_>
static inline void call_triton_poi_fused_add_clone_convolution_silu_transpose_view_7(
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
    const in_ptr2_type_& in_ptr2,
    const out_ptr0_type_& out_ptr0,
    const out_ptr1_type_& out_ptr1,
    const out_ptr2_type_& out_ptr2,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    kernels_type_& kernels_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    /*
    async_compile.triton('triton_poi_fused_add_clone_convolution_silu_transpose_view_7', '''
    import triton
    import triton.language as tl

    from torch._inductor.runtime import triton_helpers, triton_heuristics
    from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
    from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
    triton_helpers.set_driver_to_gpu()

    @triton_heuristics.pointwise(
        size_hints={'x': 1048576}, 
        filename=__file__,
        triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'in_ptr2': '*fp16', 'out_ptr0': '*fp16', 'out_ptr1': '*fp16', 'out_ptr2': '*fp16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
        inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_clone_convolution_silu_transpose_view_7', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 3, 'num_store': 3, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 9437440}},
        min_elem_per_thread=0
    )
    @triton.jit
    def triton_poi_fused_add_clone_convolution_silu_transpose_view_7(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, out_ptr2, xnumel, XBLOCK : tl.constexpr):
        xnumel = 589824
        xoffset = tl.program_id(0) * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = tl.full([XBLOCK], True, tl.int1)[:]
        x2 = xindex
        x0 = (xindex % 128)
        tmp0 = tl.load(in_ptr0 + (x2), None).to(tl.float32)
        tmp1 = tl.load(in_ptr1 + (x2), None).to(tl.float32)
        tmp2 = tl.load(in_ptr2 + (x0), None, eviction_policy='evict_last').to(tl.float32)
        tmp3 = tmp1 + tmp2
        tmp4 = tmp3.to(tl.float32)
        tmp5 = -tmp4
        tmp6 = libdevice.exp(tmp5)
        tmp7 = tl.full([1], 1.0, tl.float32)
        tmp8 = tmp6 + tmp7
        tmp9 = (tmp4 / tmp8)
        tmp10 = tmp9.to(tl.float32)
        tmp11 = tmp0 + tmp10
        tl.store(out_ptr0 + (x2), tmp11, None)
        tl.store(out_ptr1 + (x2), tmp11, None)
        tl.store(out_ptr2 + (x2), tmp11, None)
    ''', device_str='cuda')
    */
    uint32_t grid_0 = ((xnumel + (512 - 1)) / (512));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (kernels_.triton_poi_fused_add_clone_convolution_silu_transpose_view_7 == nullptr) {
        kernels_.triton_poi_fused_add_clone_convolution_silu_transpose_view_7 = loadKernel("/tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/c4zxytxfcfultfvl6jnpr6pi2nrviatpycim5mf77qxrkul43iyx.cubin", "triton_poi_fused_add_clone_convolution_silu_transpose_view_7", 0, cubin_dir_); 
    }
    CUdeviceptr var_56 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_57 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_58 = reinterpret_cast<CUdeviceptr>(in_ptr2.data_ptr());
    CUdeviceptr var_59 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    CUdeviceptr var_60 = reinterpret_cast<CUdeviceptr>(out_ptr1.data_ptr());
    CUdeviceptr var_61 = reinterpret_cast<CUdeviceptr>(out_ptr2.data_ptr());
    int32_t var_62 = xnumel;
    CUdeviceptr global_scratch_scratch_63 = 0;
    CUdeviceptr profile_scratch_scratch_64 = 0;
    void* kernel_args_[] = {&var_56, &var_57, &var_58, &var_59, &var_60, &var_61, &var_62, &global_scratch_scratch_63, &profile_scratch_scratch_64};
    launchKernel(kernels_.triton_poi_fused_add_clone_convolution_silu_transpose_view_7, grid_0, grid_1, grid_2, 8, 0, kernel_args_, stream_);
}

template <typename in_ptr0_type_, typename in_ptr1_type_, typename out_ptr0_type_, typename kernels_type_>
static inline void call_triton_poi_fused__to_copy__unsafe_view_add_mul_8(
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
    const out_ptr0_type_& out_ptr0,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    kernels_type_& kernels_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    /*
    async_compile.triton('triton_poi_fused__to_copy__unsafe_view_add_mul_8', '''
    import triton
    import triton.language as tl

    from torch._inductor.runtime import triton_helpers, triton_heuristics
    from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
    from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
    triton_helpers.set_driver_to_gpu()

    @triton_heuristics.pointwise(
        size_hints={'x': 1048576}, 
        filename=__file__,
        triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
        inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy__unsafe_view_add_mul_8', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 5898496}},
        min_elem_per_thread=0
    )
    @triton.jit
    def triton_poi_fused__to_copy__unsafe_view_add_mul_8(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
        xnumel = 589824
        xoffset = tl.program_id(0) * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = tl.full([XBLOCK], True, tl.int1)[:]
        x2 = xindex
        x0 = (xindex % 128)
        tmp0 = tl.load(in_ptr0 + (x2), None).to(tl.float32)
        tmp1 = tl.load(in_ptr1 + (x0), None, eviction_policy='evict_last').to(tl.float32)
        tmp2 = tmp0 + tmp1
        tmp3 = tmp2.to(tl.float32)
        tmp4 = tl.full([1], 0.29730177875068026, tl.float32)
        tmp5 = tmp3 * tmp4
        tl.store(out_ptr0 + (x2), tmp5, None)
    ''', device_str='cuda')
    */
    uint32_t grid_0 = ((xnumel + (512 - 1)) / (512));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (kernels_.triton_poi_fused__to_copy__unsafe_view_add_mul_8 == nullptr) {
        kernels_.triton_poi_fused__to_copy__unsafe_view_add_mul_8 = loadKernel("/tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/cyeomm5pjmhloty4oqhldiksejrulj36cpjz4syqzzg6vsyctdh3.cubin", "triton_poi_fused__to_copy__unsafe_view_add_mul_8", 0, cubin_dir_); 
    }
    CUdeviceptr var_65 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_66 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_67 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_68 = xnumel;
    CUdeviceptr global_scratch_scratch_69 = 0;
    CUdeviceptr profile_scratch_scratch_70 = 0;
    void* kernel_args_[] = {&var_65, &var_66, &var_67, &var_68, &global_scratch_scratch_69, &profile_scratch_scratch_70};
    launchKernel(kernels_.triton_poi_fused__to_copy__unsafe_view_add_mul_8, grid_0, grid_1, grid_2, 8, 0, kernel_args_, stream_);
}

template <typename in_out_ptr0_type_, typename kernels_type_>
static inline void call_triton_red_fused__safe_softmax_exp_prepare_softmax_online_sub_9(
    const in_out_ptr0_type_& in_out_ptr0,
    int64_t xnumel,
    int64_t r0_numel,
    int32_t device_idx_,
    cudaStream_t stream_,
    kernels_type_& kernels_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    /*
    async_compile.triton('triton_red_fused__safe_softmax_exp_prepare_softmax_online_sub_9', '''
    import triton
    import triton.language as tl

    from torch._inductor.runtime import triton_helpers, triton_heuristics
    from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
    from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
    triton_helpers.set_driver_to_gpu()

    @triton_heuristics.reduction(
        size_hints={'x': 8192, 'r0_': 4096},
        reduction_hint=ReductionHint.INNER,
        filename=__file__,
        triton_meta={'signature': {'in_out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
        inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__safe_softmax_exp_prepare_softmax_online_sub_9', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 3, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'add_persistent_rblock': True, 'tiling_scores': {'x': 0, 'r0_': 127401984}}
    )
    @triton.jit
    def triton_red_fused__safe_softmax_exp_prepare_softmax_online_sub_9(in_out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
        xnumel = 4608
        r0_numel = 2304
        rnumel = r0_numel
        RBLOCK: tl.constexpr = R0_BLOCK
        xoffset = tl.program_id(0) * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
        xmask = xindex < xnumel
        r0_base = tl.arange(0, R0_BLOCK)[None, :]
        rbase = r0_base
        x0 = xindex
        _tmp7 = tl.full([XBLOCK, R0_BLOCK], False, tl.int1)
        _tmp11_max = tl.full([XBLOCK, R0_BLOCK], float('-inf'), tl.float32)
        _tmp11_sum = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
        for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
            r0_index = r0_offset + r0_base
            r0_mask = r0_index < r0_numel
            roffset = r0_offset
            rindex = r0_index
            r0_1 = r0_index
            tmp0 = tl.load(in_out_ptr0 + (r0_1 + 2304*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
            tmp1 = tl.full([1, 1], float("-inf"), tl.float32)
            tmp2 = tmp0 == tmp1
            tmp3 = tmp2 == 0
            tmp4 = tmp3.to(tl.int64)
            tmp5 = (tmp4 != 0)
            tmp6 = tl.broadcast_to(tmp5, [XBLOCK, R0_BLOCK])
            tmp8 = _tmp7 | tmp6
            _tmp7 = tl.where(r0_mask & xmask, tmp8, _tmp7)
            tmp10 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])

            _tmp11_max_next, _tmp11_sum_next = triton_helpers.online_softmax_combine(
                _tmp11_max, _tmp11_sum, tmp10, False
            )

            _tmp11_max = tl.where(r0_mask & xmask, _tmp11_max_next, _tmp11_max)
            _tmp11_sum = tl.where(r0_mask & xmask, _tmp11_sum_next, _tmp11_sum)
        tmp9 = _tmp7.to(tl.int8)
        tmp7 = triton_helpers.any(tmp9, 1)[:, None]

        tmp11, tmp12 = triton_helpers.online_softmax_reduce(
            _tmp11_max, _tmp11_sum, 1, False)
        tmp11 = tmp11[:, None]
        tmp12 = tmp12[:, None]
        for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
            r0_index = r0_offset + r0_base
            r0_mask = r0_index < r0_numel
            roffset = r0_offset
            rindex = r0_index
            r0_1 = r0_index
            tmp14 = tl.load(in_out_ptr0 + (r0_1 + 2304*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
            tmp13 = tmp7 == 0
            tmp15 = tmp14 - tmp11
            tmp16 = libdevice.exp(tmp15)
            tmp17 = (tmp16 / tmp12)
            tmp18 = tl.full([1, 1], 0.0, tl.float32)
            tmp19 = tl.where(tmp13, tmp18, tmp17)
            tl.store(in_out_ptr0 + (r0_1 + 2304*x0), tmp19, r0_mask & xmask)
    ''', device_str='cuda')
    */
    uint32_t grid_0 = xnumel;
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (kernels_.triton_red_fused__safe_softmax_exp_prepare_softmax_online_sub_9 == nullptr) {
        kernels_.triton_red_fused__safe_softmax_exp_prepare_softmax_online_sub_9 = loadKernel("/tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/c4ugj3denyboacndo4qscxwcxe6sfwqz6edjhfvrav6cxazqygal.cubin", "triton_red_fused__safe_softmax_exp_prepare_softmax_online_sub_9", 64, cubin_dir_); 
    }
    CUdeviceptr var_71 = reinterpret_cast<CUdeviceptr>(in_out_ptr0.data_ptr());
    int32_t var_72 = xnumel;
    int32_t var_73 = r0_numel;
    CUdeviceptr global_scratch_scratch_74 = 0;
    CUdeviceptr profile_scratch_scratch_75 = 0;
    void* kernel_args_[] = {&var_71, &var_72, &var_73, &global_scratch_scratch_74, &profile_scratch_scratch_75};
    launchKernel(kernels_.triton_red_fused__safe_softmax_exp_prepare_softmax_online_sub_9, grid_0, grid_1, grid_2, 16, 64, kernel_args_, stream_);
}

template <typename in_ptr0_type_, typename in_ptr1_type_, typename out_ptr0_type_, typename kernels_type_>
static inline void call_triton_poi_fused__to_copy__unsafe_view_add_10(
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
    const out_ptr0_type_& out_ptr0,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    kernels_type_& kernels_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    /*
    async_compile.triton('triton_poi_fused__to_copy__unsafe_view_add_10', '''
    import triton
    import triton.language as tl

    from torch._inductor.runtime import triton_helpers, triton_heuristics
    from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
    from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
    triton_helpers.set_driver_to_gpu()

    @triton_heuristics.pointwise(
        size_hints={'x': 1048576}, 
        filename=__file__,
        triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
        inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy__unsafe_view_add_10', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 5898496}},
        min_elem_per_thread=0
    )
    @triton.jit
    def triton_poi_fused__to_copy__unsafe_view_add_10(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
        xnumel = 589824
        xoffset = tl.program_id(0) * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = tl.full([XBLOCK], True, tl.int1)[:]
        x2 = xindex
        x0 = (xindex % 128)
        tmp0 = tl.load(in_ptr0 + (x2), None).to(tl.float32)
        tmp1 = tl.load(in_ptr1 + (x0), None, eviction_policy='evict_last').to(tl.float32)
        tmp2 = tmp0 + tmp1
        tmp3 = tmp2.to(tl.float32)
        tl.store(out_ptr0 + (x2), tmp3, None)
    ''', device_str='cuda')
    */
    uint32_t grid_0 = ((xnumel + (512 - 1)) / (512));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (kernels_.triton_poi_fused__to_copy__unsafe_view_add_10 == nullptr) {
        kernels_.triton_poi_fused__to_copy__unsafe_view_add_10 = loadKernel("/tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/cnq3v2sbc3qcqvj5uef56r6y7nrjcjhqhc6f6sncsrgcdyhcmbry.cubin", "triton_poi_fused__to_copy__unsafe_view_add_10", 0, cubin_dir_); 
    }
    CUdeviceptr var_76 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_77 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_78 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_79 = xnumel;
    CUdeviceptr global_scratch_scratch_80 = 0;
    CUdeviceptr profile_scratch_scratch_81 = 0;
    void* kernel_args_[] = {&var_76, &var_77, &var_78, &var_79, &global_scratch_scratch_80, &profile_scratch_scratch_81};
    launchKernel(kernels_.triton_poi_fused__to_copy__unsafe_view_add_10, grid_0, grid_1, grid_2, 8, 0, kernel_args_, stream_);
}

template <typename in_ptr0_type_, typename in_ptr1_type_, typename in_ptr2_type_, typename in_ptr3_type_, typename out_ptr0_type_, typename kernels_type_>
static inline void call_triton_poi_fused__to_copy_add_clone_convolution_silu_transpose_view_11(
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
    const in_ptr2_type_& in_ptr2,
    const in_ptr3_type_& in_ptr3,
    const out_ptr0_type_& out_ptr0,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    kernels_type_& kernels_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    /*
    async_compile.triton('triton_poi_fused__to_copy_add_clone_convolution_silu_transpose_view_11', '''
    import triton
    import triton.language as tl

    from torch._inductor.runtime import triton_helpers, triton_heuristics
    from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
    from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
    triton_helpers.set_driver_to_gpu()

    @triton_heuristics.pointwise(
        size_hints={'x': 1048576}, 
        filename=__file__,
        triton_meta={'signature': {'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'in_ptr2': '*fp16', 'in_ptr3': '*fp32', 'out_ptr0': '*fp16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
        inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy_add_clone_convolution_silu_transpose_view_11', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 4, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 7078144}},
        min_elem_per_thread=0
    )
    @triton.jit
    def triton_poi_fused__to_copy_add_clone_convolution_silu_transpose_view_11(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr0, xnumel, XBLOCK : tl.constexpr):
        xnumel = 589824
        xoffset = tl.program_id(0) * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = tl.full([XBLOCK], True, tl.int1)[:]
        x2 = xindex
        x0 = (xindex % 128)
        tmp0 = tl.load(in_ptr0 + (x2), None).to(tl.float32)
        tmp1 = tl.load(in_ptr1 + (x2), None).to(tl.float32)
        tmp2 = tl.load(in_ptr2 + (x0), None, eviction_policy='evict_last').to(tl.float32)
        tmp12 = tl.load(in_ptr3 + (x2), None)
        tmp3 = tmp1 + tmp2
        tmp4 = tmp3.to(tl.float32)
        tmp5 = -tmp4
        tmp6 = libdevice.exp(tmp5)
        tmp7 = tl.full([1], 1.0, tl.float32)
        tmp8 = tmp6 + tmp7
        tmp9 = (tmp4 / tmp8)
        tmp10 = tmp9.to(tl.float32)
        tmp11 = tmp0 + tmp10
        tmp13 = tmp12.to(tl.float32)
        tmp14 = tmp11 + tmp13
        tl.store(out_ptr0 + (x2), tmp14, None)
    ''', device_str='cuda')
    */
    uint32_t grid_0 = ((xnumel + (512 - 1)) / (512));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (kernels_.triton_poi_fused__to_copy_add_clone_convolution_silu_transpose_view_11 == nullptr) {
        kernels_.triton_poi_fused__to_copy_add_clone_convolution_silu_transpose_view_11 = loadKernel("/tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/c42pd6suksc4jjiukzwbesfzf3o4tof6fav2w6anr64demva36lq.cubin", "triton_poi_fused__to_copy_add_clone_convolution_silu_transpose_view_11", 0, cubin_dir_); 
    }
    CUdeviceptr var_82 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_83 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_84 = reinterpret_cast<CUdeviceptr>(in_ptr2.data_ptr());
    CUdeviceptr var_85 = reinterpret_cast<CUdeviceptr>(in_ptr3.data_ptr());
    CUdeviceptr var_86 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_87 = xnumel;
    CUdeviceptr global_scratch_scratch_88 = 0;
    CUdeviceptr profile_scratch_scratch_89 = 0;
    void* kernel_args_[] = {&var_82, &var_83, &var_84, &var_85, &var_86, &var_87, &global_scratch_scratch_88, &profile_scratch_scratch_89};
    launchKernel(kernels_.triton_poi_fused__to_copy_add_clone_convolution_silu_transpose_view_11, grid_0, grid_1, grid_2, 8, 0, kernel_args_, stream_);
}

template <typename in_out_ptr0_type_, typename in_ptr0_type_, typename kernels_type_>
static inline void call_triton_poi_fused__unsafe_view_add_gelu_12(
    const in_out_ptr0_type_& in_out_ptr0,
    const in_ptr0_type_& in_ptr0,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    kernels_type_& kernels_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    /*
    async_compile.triton('triton_poi_fused__unsafe_view_add_gelu_12', '''
    import triton
    import triton.language as tl

    from torch._inductor.runtime import triton_helpers, triton_heuristics
    from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
    from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
    triton_helpers.set_driver_to_gpu()

    @triton_heuristics.pointwise(
        size_hints={'x': 4194304}, 
        filename=__file__,
        triton_meta={'signature': {'in_out_ptr0': '*fp16', 'in_ptr0': '*fp16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
        inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__unsafe_view_add_gelu_12', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 14156800}},
        min_elem_per_thread=0
    )
    @triton.jit
    def triton_poi_fused__unsafe_view_add_gelu_12(in_out_ptr0, in_ptr0, xnumel, XBLOCK : tl.constexpr):
        xnumel = 2359296
        xoffset = tl.program_id(0) * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = tl.full([XBLOCK], True, tl.int1)[:]
        x2 = xindex
        x0 = (xindex % 512)
        tmp0 = tl.load(in_out_ptr0 + (x2), None).to(tl.float32)
        tmp1 = tl.load(in_ptr0 + (x0), None, eviction_policy='evict_last').to(tl.float32)
        tmp2 = tmp0 + tmp1
        tmp3 = tmp2.to(tl.float32)
        tmp4 = tl.full([1], 0.5, tl.float32)
        tmp5 = tmp3 * tmp4
        tmp6 = tl.full([1], 0.7071067811865476, tl.float32)
        tmp7 = tmp3 * tmp6
        tmp8 = libdevice.erf(tmp7)
        tmp9 = tl.full([1], 1.0, tl.float32)
        tmp10 = tmp8 + tmp9
        tmp11 = tmp5 * tmp10
        tmp12 = tmp11.to(tl.float32)
        tl.store(in_out_ptr0 + (x2), tmp12, None)
    ''', device_str='cuda')
    */
    uint32_t grid_0 = ((xnumel + (512 - 1)) / (512));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (kernels_.triton_poi_fused__unsafe_view_add_gelu_12 == nullptr) {
        kernels_.triton_poi_fused__unsafe_view_add_gelu_12 = loadKernel("/tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/cnxffrbsqt745igorulphgsye6qnhaxncamhlpaba2rsm67wz272.cubin", "triton_poi_fused__unsafe_view_add_gelu_12", 0, cubin_dir_); 
    }
    CUdeviceptr var_90 = reinterpret_cast<CUdeviceptr>(in_out_ptr0.data_ptr());
    CUdeviceptr var_91 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    int32_t var_92 = xnumel;
    CUdeviceptr global_scratch_scratch_93 = 0;
    CUdeviceptr profile_scratch_scratch_94 = 0;
    void* kernel_args_[] = {&var_90, &var_91, &var_92, &global_scratch_scratch_93, &profile_scratch_scratch_94};
    launchKernel(kernels_.triton_poi_fused__unsafe_view_add_gelu_12, grid_0, grid_1, grid_2, 8, 0, kernel_args_, stream_);
}

template <typename in_out_ptr0_type_, typename in_ptr0_type_, typename in_ptr1_type_, typename in_ptr2_type_, typename in_ptr3_type_, typename kernels_type_>
static inline void call_triton_poi_fused__to_copy_add_convolution_silu_transpose_view_13(
    const in_out_ptr0_type_& in_out_ptr0,
    const in_ptr0_type_& in_ptr0,
    const in_ptr1_type_& in_ptr1,
    const in_ptr2_type_& in_ptr2,
    const in_ptr3_type_& in_ptr3,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    kernels_type_& kernels_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    /*
    async_compile.triton('triton_poi_fused__to_copy_add_convolution_silu_transpose_view_13', '''
    import triton
    import triton.language as tl

    from torch._inductor.runtime import triton_helpers, triton_heuristics
    from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
    from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
    triton_helpers.set_driver_to_gpu()

    @triton_heuristics.pointwise(
        size_hints={'x': 1048576}, 
        filename=__file__,
        triton_meta={'signature': {'in_out_ptr0': '*fp16', 'in_ptr0': '*fp16', 'in_ptr1': '*fp16', 'in_ptr2': '*fp32', 'in_ptr3': '*fp16', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
        inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy_add_convolution_silu_transpose_view_13', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 8257792}},
        min_elem_per_thread=0
    )
    @triton.jit
    def triton_poi_fused__to_copy_add_convolution_silu_transpose_view_13(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, xnumel, XBLOCK : tl.constexpr):
        xnumel = 589824
        xoffset = tl.program_id(0) * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = tl.full([XBLOCK], True, tl.int1)[:]
        x2 = xindex
        x0 = (xindex % 128)
        tmp0 = tl.load(in_out_ptr0 + (x2), None).to(tl.float32)
        tmp1 = tl.load(in_ptr0 + (x2), None).to(tl.float32)
        tmp2 = tl.load(in_ptr1 + (x0), None, eviction_policy='evict_last').to(tl.float32)
        tmp12 = tl.load(in_ptr2 + (x2), None)
        tmp15 = tl.load(in_ptr3 + (x2), None).to(tl.float32)
        tmp3 = tmp1 + tmp2
        tmp4 = tmp3.to(tl.float32)
        tmp5 = -tmp4
        tmp6 = libdevice.exp(tmp5)
        tmp7 = tl.full([1], 1.0, tl.float32)
        tmp8 = tmp6 + tmp7
        tmp9 = (tmp4 / tmp8)
        tmp10 = tmp9.to(tl.float32)
        tmp11 = tmp0 + tmp10
        tmp13 = tmp12.to(tl.float32)
        tmp14 = tmp11 + tmp13
        tmp16 = tmp14 + tmp15
        tl.store(in_out_ptr0 + (x2), tmp16, None)
    ''', device_str='cuda')
    */
    uint32_t grid_0 = ((xnumel + (512 - 1)) / (512));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (kernels_.triton_poi_fused__to_copy_add_convolution_silu_transpose_view_13 == nullptr) {
        kernels_.triton_poi_fused__to_copy_add_convolution_silu_transpose_view_13 = loadKernel("/tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/cv7pa5eo5gxdesojf7zvhnstz2bjkn3ecf2nyfnpet2nnpe6syjd.cubin", "triton_poi_fused__to_copy_add_convolution_silu_transpose_view_13", 0, cubin_dir_); 
    }
    CUdeviceptr var_95 = reinterpret_cast<CUdeviceptr>(in_out_ptr0.data_ptr());
    CUdeviceptr var_96 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_97 = reinterpret_cast<CUdeviceptr>(in_ptr1.data_ptr());
    CUdeviceptr var_98 = reinterpret_cast<CUdeviceptr>(in_ptr2.data_ptr());
    CUdeviceptr var_99 = reinterpret_cast<CUdeviceptr>(in_ptr3.data_ptr());
    int32_t var_100 = xnumel;
    CUdeviceptr global_scratch_scratch_101 = 0;
    CUdeviceptr profile_scratch_scratch_102 = 0;
    void* kernel_args_[] = {&var_95, &var_96, &var_97, &var_98, &var_99, &var_100, &global_scratch_scratch_101, &profile_scratch_scratch_102};
    launchKernel(kernels_.triton_poi_fused__to_copy_add_convolution_silu_transpose_view_13, grid_0, grid_1, grid_2, 8, 0, kernel_args_, stream_);
}

template <typename in_ptr0_type_, typename out_ptr0_type_, typename kernels_type_>
static inline void call_triton_poi_fused__to_copy_add_convolution_silu_transpose_view_14(
    const in_ptr0_type_& in_ptr0,
    const out_ptr0_type_& out_ptr0,
    int64_t ynumel,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    kernels_type_& kernels_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    /*
    async_compile.triton('triton_poi_fused__to_copy_add_convolution_silu_transpose_view_14', '''
    import triton
    import triton.language as tl

    from torch._inductor.runtime import triton_helpers, triton_heuristics
    from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
    from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
    triton_helpers.set_driver_to_gpu()

    @triton_heuristics.pointwise(
        size_hints={'y': 512, 'x': 16}, tile_hint=TileHint.SQUARE,
        filename=__file__,
        triton_meta={'signature': {'in_ptr0': '*fp16', 'out_ptr0': '*fp16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
        inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy_add_convolution_silu_transpose_view_14', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 18432, 'x': 9216}},
        min_elem_per_thread=0
    )
    @triton.jit
    def triton_poi_fused__to_copy_add_convolution_silu_transpose_view_14(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
        ynumel = 512
        xnumel = 9
        yoffset = tl.program_id(1) * YBLOCK
        yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
        ymask = yindex < ynumel
        xoffset = tl.program_id(0) * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
        xmask = xindex < xnumel
        x2 = xindex
        y3 = yindex
        y0 = (yindex % 128)
        y1 = yindex // 128
        tmp0 = tl.load(in_ptr0 + (x2 + 9*y3), xmask & ymask, eviction_policy='evict_last').to(tl.float32)
        tl.store(out_ptr0 + (y0 + 128*x2 + 1152*y1), tmp0, xmask & ymask)
    ''', device_str='cuda')
    */
    uint32_t grid_0 = ((xnumel + (16 - 1)) / (16));
    uint32_t grid_1 = ((ynumel + (64 - 1)) / (64));
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (kernels_.triton_poi_fused__to_copy_add_convolution_silu_transpose_view_14 == nullptr) {
        kernels_.triton_poi_fused__to_copy_add_convolution_silu_transpose_view_14 = loadKernel("/tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/cnwfyidrczujrbg7wuuzw5zss3vcjoiunk3umn5bfyc6w3dwq4iq.cubin", "triton_poi_fused__to_copy_add_convolution_silu_transpose_view_14", 2048, cubin_dir_); 
    }
    CUdeviceptr var_103 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_104 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_105 = ynumel;
    int32_t var_106 = xnumel;
    CUdeviceptr global_scratch_scratch_107 = 0;
    CUdeviceptr profile_scratch_scratch_108 = 0;
    void* kernel_args_[] = {&var_103, &var_104, &var_105, &var_106, &global_scratch_scratch_107, &profile_scratch_scratch_108};
    launchKernel(kernels_.triton_poi_fused__to_copy_add_convolution_silu_transpose_view_14, grid_0, grid_1, grid_2, 4, 2048, kernel_args_, stream_);
}

template <typename in_ptr0_type_, typename out_ptr0_type_, typename kernels_type_>
static inline void call_triton_poi_fused__to_copy_add_convolution_silu_transpose_view_15(
    const in_ptr0_type_& in_ptr0,
    const out_ptr0_type_& out_ptr0,
    int64_t ynumel,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    kernels_type_& kernels_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    /*
    async_compile.triton('triton_poi_fused__to_copy_add_convolution_silu_transpose_view_15', '''
    import triton
    import triton.language as tl

    from torch._inductor.runtime import triton_helpers, triton_heuristics
    from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
    from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
    triton_helpers.set_driver_to_gpu()

    @triton_heuristics.pointwise(
        size_hints={'y': 8, 'x': 4096}, tile_hint=TileHint.SQUARE,
        filename=__file__,
        triton_meta={'signature': {'in_ptr0': '*fp16', 'out_ptr0': '*fp16', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
        inductor_meta={'grid_type': 'Grid2D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy_add_convolution_silu_transpose_view_15', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'y': 36864, 'x': 73728}},
        min_elem_per_thread=0
    )
    @triton.jit
    def triton_poi_fused__to_copy_add_convolution_silu_transpose_view_15(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
        ynumel = 8
        xnumel = 2304
        yoffset = tl.program_id(1) * YBLOCK
        yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
        ymask = yindex < ynumel
        xoffset = tl.program_id(0) * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
        xmask = xindex < xnumel
        x2 = xindex
        y0 = (yindex % 4)
        y1 = yindex // 4
        y3 = yindex
        tmp0 = tl.load(in_ptr0 + (y0 + 4*x2 + 9216*y1), xmask & ymask, eviction_policy='evict_last').to(tl.float32)
        tmp1 = y0
        tmp2 = tl.full([1, 1], 2, tl.int64)
        tmp3 = tmp1 < tmp2
        tmp4 = tl.full([1, 1], 1, tl.int64)
        tmp5 = tmp1 < tmp4
        tmp6 = tl.full([1, 1], -0.0007061958312988281, tl.float32)
        tmp7 = tl.full([1, 1], -0.0030117034912109375, tl.float32)
        tmp8 = tl.where(tmp5, tmp6, tmp7)
        tmp9 = tl.full([1, 1], 3, tl.int64)
        tmp10 = tmp1 < tmp9
        tmp11 = tl.full([1, 1], 0.00433349609375, tl.float32)
        tmp12 = tl.full([1, 1], 0.0196075439453125, tl.float32)
        tmp13 = tl.where(tmp10, tmp11, tmp12)
        tmp14 = tl.where(tmp3, tmp8, tmp13)
        tmp15 = tmp0 + tmp14
        tl.store(out_ptr0 + (x2 + 2304*y3), tmp15, xmask & ymask)
    ''', device_str='cuda')
    */
    uint32_t grid_0 = ((xnumel + (128 - 1)) / (128));
    uint32_t grid_1 = ((ynumel + (8 - 1)) / (8));
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (kernels_.triton_poi_fused__to_copy_add_convolution_silu_transpose_view_15 == nullptr) {
        kernels_.triton_poi_fused__to_copy_add_convolution_silu_transpose_view_15 = loadKernel("/tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/cpmmkfxagmkhwzjnunmrmcy5ddv3knwooart3kukoyhoyew4eylf.cubin", "triton_poi_fused__to_copy_add_convolution_silu_transpose_view_15", 2048, cubin_dir_); 
    }
    CUdeviceptr var_109 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_110 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_111 = ynumel;
    int32_t var_112 = xnumel;
    CUdeviceptr global_scratch_scratch_113 = 0;
    CUdeviceptr profile_scratch_scratch_114 = 0;
    void* kernel_args_[] = {&var_109, &var_110, &var_111, &var_112, &global_scratch_scratch_113, &profile_scratch_scratch_114};
    launchKernel(kernels_.triton_poi_fused__to_copy_add_convolution_silu_transpose_view_15, grid_0, grid_1, grid_2, 4, 2048, kernel_args_, stream_);
}

namespace torch::aot_inductor {

void AOTInductorModel::_const_run_impl(
    std::vector<AtenTensorHandle>& output_handles,
    DeviceStreamType stream,
    AOTIProxyExecutorHandle proxy_executor
) {}

AOTI_NOINLINE static void check_input_0(
    AtenTensorHandle* input_handles
) {
    ConstantHandle arg18_1 = ConstantHandle(input_handles[0]);
    int32_t arg18_1_dtype;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_get_dtype(arg18_1, &arg18_1_dtype));

    int32_t arg18_1_expected_dtype = aoti_torch_dtype_float16();
    if (arg18_1_expected_dtype != arg18_1_dtype) {
        std::stringstream ss;
        ss << "input_handles[0]: unmatched dtype, "
           << "expected: " << arg18_1_expected_dtype << "(at::kHalf), "
           << "but got: " << arg18_1_dtype << "\n";
        throw std::runtime_error(ss.str());
    }
    auto arg18_1_size = arg18_1.sizes();

    if (2 != arg18_1_size[0]) {
        std::stringstream ss;
        ss << "input_handles[0]: unmatched dim value at 0, "
           << "expected: 2, " << "but got: " << arg18_1_size[0]
           << "\n";
        throw std::runtime_error(ss.str());
    }

    if (4 != arg18_1_size[1]) {
        std::stringstream ss;
        ss << "input_handles[0]: unmatched dim value at 1, "
           << "expected: 4, " << "but got: " << arg18_1_size[1]
           << "\n";
        throw std::runtime_error(ss.str());
    }

    if (48 != arg18_1_size[2]) {
        std::stringstream ss;
        ss << "input_handles[0]: unmatched dim value at 2, "
           << "expected: 48, " << "but got: " << arg18_1_size[2]
           << "\n";
        throw std::runtime_error(ss.str());
    }

    if (48 != arg18_1_size[3]) {
        std::stringstream ss;
        ss << "input_handles[0]: unmatched dim value at 3, "
           << "expected: 48, " << "but got: " << arg18_1_size[3]
           << "\n";
        throw std::runtime_error(ss.str());
    }
    auto arg18_1_stride = arg18_1.strides();

    if (9216 != arg18_1_stride[0]) {
        std::stringstream ss;
        ss << "input_handles[0]: unmatched stride value at 0, "
           << "expected: 9216, " << "but got: " << arg18_1_stride[0]
           << "\n";
        throw std::runtime_error(ss.str());
    }

    if (2304 != arg18_1_stride[1]) {
        std::stringstream ss;
        ss << "input_handles[0]: unmatched stride value at 1, "
           << "expected: 2304, " << "but got: " << arg18_1_stride[1]
           << "\n";
        throw std::runtime_error(ss.str());
    }

    if (48 != arg18_1_stride[2]) {
        std::stringstream ss;
        ss << "input_handles[0]: unmatched stride value at 2, "
           << "expected: 48, " << "but got: " << arg18_1_stride[2]
           << "\n";
        throw std::runtime_error(ss.str());
    }

    if (1 != arg18_1_stride[3]) {
        std::stringstream ss;
        ss << "input_handles[0]: unmatched stride value at 3, "
           << "expected: 1, " << "but got: " << arg18_1_stride[3]
           << "\n";
        throw std::runtime_error(ss.str());
    }
    int32_t arg18_1_device_type;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_get_device_type(arg18_1, &arg18_1_device_type));

    int32_t arg18_1_expected_device_type = 1;
    if (arg18_1_expected_device_type != arg18_1_device_type) {
        std::stringstream ss;
        ss << "input_handles[0]: unmatched device type, "
        << "expected: " << arg18_1_expected_device_type << "1(cuda), "
        << "but got: " << arg18_1_device_type << "\n";
        throw std::runtime_error(ss.str());
    }
}

static bool _check_aoti_runtime_check_inputs_env() {
    const static char* env_var_value = getenv("AOTI_RUNTIME_CHECK_INPUTS");
    const static bool result = env_var_value != nullptr && env_var_value[0] != '0';
    return result;
}

AOTI_NOINLINE static void __check_inputs_outputs(
    AtenTensorHandle* input_handles,
    AtenTensorHandle* output_handles) {
    if (!_check_aoti_runtime_check_inputs_env()){
        return;
    }
    check_input_0(input_handles);
}

void AOTInductorModel::run_impl(
    AtenTensorHandle*
        input_handles, // array of input AtenTensorHandle; handles
                        // are stolen; the array itself is borrowed
    AtenTensorHandle*
        output_handles, // array for writing output AtenTensorHandle; handles
                        // will be stolen by the caller; the array itself is
                        // borrowed
    DeviceStreamType stream,
    AOTIProxyExecutorHandle proxy_executor
) {
    __check_inputs_outputs(input_handles, output_handles);

    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 1);
    auto arg18_1 = std::move(inputs[0]);
    [[maybe_unused]] auto& conv_in_weight = constants_->at(0);
    [[maybe_unused]] auto& conv_in_bias = constants_->at(1);
    [[maybe_unused]] auto& norm_weight = constants_->at(2);
    [[maybe_unused]] auto& norm_bias = constants_->at(3);
    [[maybe_unused]] auto& conv2_weight = constants_->at(4);
    [[maybe_unused]] auto& conv2_bias = constants_->at(5);
    [[maybe_unused]] auto& q_weight = constants_->at(6);
    [[maybe_unused]] auto& q_bias = constants_->at(7);
    [[maybe_unused]] auto& k_weight = constants_->at(8);
    [[maybe_unused]] auto& k_bias = constants_->at(9);
    [[maybe_unused]] auto& v_weight = constants_->at(10);
    [[maybe_unused]] auto& v_bias = constants_->at(11);
    [[maybe_unused]] auto& ff1_weight = constants_->at(12);
    [[maybe_unused]] auto& ff1_bias = constants_->at(13);
    [[maybe_unused]] auto& ff2_weight = constants_->at(14);
    [[maybe_unused]] auto& ff2_bias = constants_->at(15);
    [[maybe_unused]] auto& conv_out_weight = constants_->at(16);

    if ((reinterpret_cast<std::uintptr_t>(arg18_1.data_ptr()) & (16 -1)) != 0) {
        AOTI_TORCH_WARN("Input 0 was compiled as 16-bytes aligned, but it is not aligned at run time. Copying to an aligned tensor to guarantee correctness, but expect a performance hit.");
        AtenTensorHandle arg18_1_aligned;
        aoti_torch_clone_preserve_strides(arg18_1, &arg18_1_aligned);
        arg18_1 = std::move(RAIIAtenTensorHandle(arg18_1_aligned));
    }
    inputs.clear();
    [[maybe_unused]] auto& kernels = static_cast<AOTInductorModelKernels&>(*this->kernels_.get());

    AOTICudaStreamGuard stream_guard(stream, this->device_idx_);
    static constexpr int64_t int_array_0[] = {2L, 4L, 48L, 48L};
    static constexpr int64_t int_array_1[] = {9216L, 1L, 192L, 4L};
    AtenTensorHandle buf0_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(4, int_array_0, int_array_1, cached_torch_dtype_float16, cached_torch_device_type_cuda, this->device_idx_, &buf0_handle));
    RAIIAtenTensorHandle buf0(buf0_handle);
    // Topologically Sorted Source Nodes: [conv2d], Original ATen: [aten.convolution]
    call_triton_poi_fused_convolution_0(arg18_1, buf0, 8L, 2304L, this->device_idx_, stream, kernels, this->cubin_dir_);
    arg18_1.reset();
    static constexpr int64_t int_array_2[] = {128L, 4L, 3L, 3L};
    static constexpr int64_t int_array_3[] = {36L, 1L, 12L, 4L};
    AtenTensorHandle buf1_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(4, int_array_2, int_array_3, cached_torch_dtype_float16, cached_torch_device_type_cuda, this->device_idx_, &buf1_handle));
    RAIIAtenTensorHandle buf1(buf1_handle);
    // Topologically Sorted Source Nodes: [conv2d], Original ATen: [aten.convolution]
    call_triton_poi_fused_convolution_1(conv_in_weight, buf1, 512L, 9L, this->device_idx_, stream, kernels, this->cubin_dir_);
    // Topologically Sorted Source Nodes: [conv2d], Original ATen: [aten.convolution]
    AtenTensorHandle buf2_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_convolution(buf0, buf1, nullptr, std::array<int64_t, 2>{1L, 1L}.cbegin(), 2, std::array<int64_t, 2>{1L, 1L}.cbegin(), 2, std::array<int64_t, 2>{1L, 1L}.cbegin(), 2, 0, std::array<int64_t, 2>{0L, 0L}.cbegin(), 2, 1L, &buf2_handle));
    RAIIAtenTensorHandle buf2(buf2_handle);
    buf0.reset();
    buf1.reset();
    static constexpr int64_t int_array_4[] = {2L, 8L, 1L, 1L, 5L, 58L};
    static constexpr int64_t int_array_5[] = {2336L, 290L, 4672L, 4672L, 58L, 1L};
    AtenTensorHandle buf3_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(6, int_array_4, int_array_5, cached_torch_dtype_float32, cached_torch_device_type_cuda, this->device_idx_, &buf3_handle));
    RAIIAtenTensorHandle buf3(buf3_handle);
    AtenTensorHandle buf4_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(6, int_array_4, int_array_5, cached_torch_dtype_float32, cached_torch_device_type_cuda, this->device_idx_, &buf4_handle));
    RAIIAtenTensorHandle buf4(buf4_handle);
    AtenTensorHandle buf5_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(6, int_array_4, int_array_5, cached_torch_dtype_float32, cached_torch_device_type_cuda, this->device_idx_, &buf5_handle));
    RAIIAtenTensorHandle buf5(buf5_handle);
    // Topologically Sorted Source Nodes: [conv2d, group_norm], Original ATen: [aten.convolution, aten.native_group_norm]
    call_triton_per_fused_convolution_native_group_norm_2(buf2, conv_in_bias, buf3, buf4, buf5, 4640L, 128L, this->device_idx_, stream, kernels, this->cubin_dir_);
    static constexpr int64_t int_array_6[] = {2L, 8L, 1L, 1L, 5L};
    static constexpr int64_t int_array_7[] = {40L, 5L, 80L, 80L, 1L};
    AtenTensorHandle buf6_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(5, int_array_6, int_array_7, cached_torch_dtype_float32, cached_torch_device_type_cuda, this->device_idx_, &buf6_handle));
    RAIIAtenTensorHandle buf6(buf6_handle);
    static constexpr int64_t int_array_8[] = {2L, 8L, 1L, 1L, 5L};
    static constexpr int64_t int_array_9[] = {40L, 5L, 80L, 80L, 1L};
    AtenTensorHandle buf7_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(5, int_array_8, int_array_9, cached_torch_dtype_float32, cached_torch_device_type_cuda, this->device_idx_, &buf7_handle));
    RAIIAtenTensorHandle buf7(buf7_handle);
    AtenTensorHandle buf8_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(5, int_array_8, int_array_9, cached_torch_dtype_float32, cached_torch_device_type_cuda, this->device_idx_, &buf8_handle));
    RAIIAtenTensorHandle buf8(buf8_handle);
    // Topologically Sorted Source Nodes: [conv2d, group_norm], Original ATen: [aten.convolution, aten.native_group_norm]
    call_triton_per_fused_convolution_native_group_norm_3(buf3, buf4, buf5, buf6, buf7, buf8, 80L, 58L, this->device_idx_, stream, kernels, this->cubin_dir_);
    buf3.reset();
    buf4.reset();
    buf5.reset();
    static constexpr int64_t int_array_10[] = {2L, 8L, 1L, 1L};
    static constexpr int64_t int_array_11[] = {8L, 1L, 16L, 16L};
    AtenTensorHandle buf9_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(4, int_array_10, int_array_11, cached_torch_dtype_float32, cached_torch_device_type_cuda, this->device_idx_, &buf9_handle));
    RAIIAtenTensorHandle buf9(buf9_handle);
    static constexpr int64_t int_array_12[] = {2L, 8L, 1L, 1L};
    static constexpr int64_t int_array_13[] = {8L, 1L, 16L, 16L};
    AtenTensorHandle buf10_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(4, int_array_12, int_array_13, cached_torch_dtype_float32, cached_torch_device_type_cuda, this->device_idx_, &buf10_handle));
    RAIIAtenTensorHandle buf10(buf10_handle);
    // Topologically Sorted Source Nodes: [conv2d, group_norm], Original ATen: [aten.convolution, aten.native_group_norm]
    call_triton_per_fused_convolution_native_group_norm_4(buf6, buf7, buf8, buf9, buf10, 16L, 5L, this->device_idx_, stream, kernels, this->cubin_dir_);
    buf6.reset();
    buf7.reset();
    buf8.reset();
    static constexpr int64_t int_array_14[] = {2L, 128L, 48L, 48L};
    static constexpr int64_t int_array_15[] = {294912L, 1L, 6144L, 128L};
    AtenTensorHandle buf13_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(4, int_array_14, int_array_15, cached_torch_dtype_float16, cached_torch_device_type_cuda, this->device_idx_, &buf13_handle));
    RAIIAtenTensorHandle buf13(buf13_handle);
    // Topologically Sorted Source Nodes: [conv2d, group_norm, silu], Original ATen: [aten.convolution, aten.native_group_norm, aten.silu]
    call_triton_poi_fused_convolution_native_group_norm_silu_5(buf2, conv_in_bias, buf9, buf10, norm_weight, norm_bias, buf13, 589824L, this->device_idx_, stream, kernels, this->cubin_dir_);
    buf10.reset();
    buf9.reset();
    static constexpr int64_t int_array_16[] = {128L, 128L, 3L, 3L};
    static constexpr int64_t int_array_17[] = {1152L, 1L, 384L, 128L};
    AtenTensorHandle buf14_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(4, int_array_16, int_array_17, cached_torch_dtype_float16, cached_torch_device_type_cuda, this->device_idx_, &buf14_handle));
    RAIIAtenTensorHandle buf14(buf14_handle);
    // Topologically Sorted Source Nodes: [silu, conv2d_1], Original ATen: [aten.silu, aten.convolution]
    call_triton_poi_fused_convolution_silu_6(conv2_weight, buf14, 16384L, 9L, this->device_idx_, stream, kernels, this->cubin_dir_);
    // Topologically Sorted Source Nodes: [silu, conv2d_1], Original ATen: [aten.silu, aten.convolution]
    AtenTensorHandle buf15_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_convolution(buf13, buf14, nullptr, std::array<int64_t, 2>{1L, 1L}.cbegin(), 2, std::array<int64_t, 2>{1L, 1L}.cbegin(), 2, std::array<int64_t, 2>{1L, 1L}.cbegin(), 2, 0, std::array<int64_t, 2>{0L, 0L}.cbegin(), 2, 1L, &buf15_handle));
    RAIIAtenTensorHandle buf15(buf15_handle);
    buf14.reset();
    static constexpr int64_t int_array_18[] = {2L, 2304L, 128L};
    static constexpr int64_t int_array_19[] = {294912L, 128L, 1L};
    auto buf16 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf2, 3, int_array_18, int_array_19, 0L)); buf2.reset();  // reuse
    AtenTensorHandle buf18_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_18, int_array_19, cached_torch_dtype_float16, cached_torch_device_type_cuda, this->device_idx_, &buf18_handle));
    RAIIAtenTensorHandle buf18(buf18_handle);
    AtenTensorHandle buf26_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_18, int_array_19, cached_torch_dtype_float16, cached_torch_device_type_cuda, this->device_idx_, &buf26_handle));
    RAIIAtenTensorHandle buf26(buf26_handle);
    // Topologically Sorted Source Nodes: [silu, conv2d_1, silu_1, add, flatten, transpose, linear, linear_1, linear_2], Original ATen: [aten.silu, aten.convolution, aten.add, aten.view, aten.transpose, aten.clone]
    call_triton_poi_fused_add_clone_convolution_silu_transpose_view_7(buf13, buf15, conv2_bias, buf16, buf18, buf26, 589824L, this->device_idx_, stream, kernels, this->cubin_dir_);
    static constexpr int64_t int_array_20[] = {4608L, 128L};
    static constexpr int64_t int_array_21[] = {128L, 1L};
    AtenTensorHandle buf17_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_20, int_array_21, cached_torch_dtype_float16, cached_torch_device_type_cuda, this->device_idx_, &buf17_handle));
    RAIIAtenTensorHandle buf17(buf17_handle);
    // Topologically Sorted Source Nodes: [silu, conv2d_1, silu_1, add, flatten, transpose, linear], Original ATen: [aten.silu, aten.convolution, aten.add, aten.view, aten.transpose, aten.clone, aten._unsafe_view, aten.t, aten.mm]
    static constexpr int64_t int_array_22[] = {4608L, 128L};
    static constexpr int64_t int_array_23[] = {128L, 1L};
    static constexpr int64_t int_array_24[] = {128L, 128L};
    static constexpr int64_t int_array_25[] = {1L, 128L};
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_mm_out(buf17, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf16, 2, int_array_22, int_array_23, 0L)), wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(q_weight, 2, int_array_24, int_array_25, 0L))));
    static constexpr int64_t int_array_26[] = {4608L, 128L};
    static constexpr int64_t int_array_27[] = {128L, 1L};
    auto buf19 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf16, 2, int_array_26, int_array_27, 0L)); buf16.reset();  // reuse
    // Topologically Sorted Source Nodes: [silu, conv2d_1, silu_1, add, flatten, transpose, linear_1], Original ATen: [aten.silu, aten.convolution, aten.add, aten.view, aten.transpose, aten.clone, aten._unsafe_view, aten.t, aten.mm]
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_mm_out(buf19, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf18, 2, int_array_22, int_array_23, 0L)), wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(k_weight, 2, int_array_24, int_array_25, 0L))));
    buf18.reset();
    static constexpr int64_t int_array_28[] = {2L, 2304L, 128L};
    static constexpr int64_t int_array_29[] = {294912L, 128L, 1L};
    AtenTensorHandle buf20_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_28, int_array_29, cached_torch_dtype_float32, cached_torch_device_type_cuda, this->device_idx_, &buf20_handle));
    RAIIAtenTensorHandle buf20(buf20_handle);
    // Topologically Sorted Source Nodes: [linear, scaled_dot_product_attention], Original ATen: [aten._unsafe_view, aten.add, aten._to_copy, aten.mul]
    call_triton_poi_fused__to_copy__unsafe_view_add_mul_8(buf17, q_bias, buf20, 589824L, this->device_idx_, stream, kernels, this->cubin_dir_);
    buf17.reset();
    static constexpr int64_t int_array_30[] = {2L, 128L, 2304L};
    static constexpr int64_t int_array_31[] = {294912L, 1L, 128L};
    AtenTensorHandle buf21_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_30, int_array_31, cached_torch_dtype_float32, cached_torch_device_type_cuda, this->device_idx_, &buf21_handle));
    RAIIAtenTensorHandle buf21(buf21_handle);
    // Topologically Sorted Source Nodes: [linear_1, scaled_dot_product_attention], Original ATen: [aten._unsafe_view, aten.add, aten._to_copy, aten.transpose, aten.mul]
    call_triton_poi_fused__to_copy__unsafe_view_add_mul_8(buf19, k_bias, buf21, 589824L, this->device_idx_, stream, kernels, this->cubin_dir_);
    buf19.reset();
    static constexpr int64_t int_array_32[] = {2L, 2304L, 2304L};
    static constexpr int64_t int_array_33[] = {5308416L, 2304L, 1L};
    AtenTensorHandle buf22_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_32, int_array_33, cached_torch_dtype_float32, cached_torch_device_type_cuda, this->device_idx_, &buf22_handle));
    RAIIAtenTensorHandle buf22(buf22_handle);
    // Topologically Sorted Source Nodes: [linear, scaled_dot_product_attention, linear_1], Original ATen: [aten._unsafe_view, aten.add, aten._to_copy, aten.mul, aten.transpose, aten.bmm]
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_bmm_out(buf22, buf20, buf21));
    buf20.reset();
    buf21.reset();
    auto buf28 = std::move(buf22);  // reuse
    // Topologically Sorted Source Nodes: [scaled_dot_product_attention], Original ATen: [aten._safe_softmax, prims.prepare_softmax_online, aten.sub, aten.exp]
    call_triton_red_fused__safe_softmax_exp_prepare_softmax_online_sub_9(buf28, 4608L, 2304L, this->device_idx_, stream, kernels, this->cubin_dir_);
    static constexpr int64_t int_array_34[] = {4608L, 128L};
    static constexpr int64_t int_array_35[] = {128L, 1L};
    AtenTensorHandle buf27_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_34, int_array_35, cached_torch_dtype_float16, cached_torch_device_type_cuda, this->device_idx_, &buf27_handle));
    RAIIAtenTensorHandle buf27(buf27_handle);
    // Topologically Sorted Source Nodes: [silu, conv2d_1, silu_1, add, flatten, transpose, linear_2], Original ATen: [aten.silu, aten.convolution, aten.add, aten.view, aten.transpose, aten.clone, aten._unsafe_view, aten.t, aten.mm]
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_mm_out(buf27, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf26, 2, int_array_22, int_array_23, 0L)), wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(v_weight, 2, int_array_24, int_array_25, 0L))));
    buf26.reset();
    static constexpr int64_t int_array_36[] = {2L, 2304L, 128L};
    static constexpr int64_t int_array_37[] = {294912L, 128L, 1L};
    AtenTensorHandle buf29_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_36, int_array_37, cached_torch_dtype_float32, cached_torch_device_type_cuda, this->device_idx_, &buf29_handle));
    RAIIAtenTensorHandle buf29(buf29_handle);
    // Topologically Sorted Source Nodes: [linear_2, scaled_dot_product_attention], Original ATen: [aten._unsafe_view, aten.add, aten._to_copy]
    call_triton_poi_fused__to_copy__unsafe_view_add_10(buf27, v_bias, buf29, 589824L, this->device_idx_, stream, kernels, this->cubin_dir_);
    static constexpr int64_t int_array_38[] = {2L, 2304L, 128L};
    static constexpr int64_t int_array_39[] = {294912L, 128L, 1L};
    AtenTensorHandle buf30_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_38, int_array_39, cached_torch_dtype_float32, cached_torch_device_type_cuda, this->device_idx_, &buf30_handle));
    RAIIAtenTensorHandle buf30(buf30_handle);
    // Topologically Sorted Source Nodes: [scaled_dot_product_attention, linear_2], Original ATen: [aten._safe_softmax, aten.sub, aten.exp, aten._unsafe_view, aten.add, aten._to_copy, aten.bmm]
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_bmm_out(buf30, buf28, buf29));
    buf28.reset();
    buf29.reset();
    static constexpr int64_t int_array_40[] = {2L, 2304L, 128L};
    static constexpr int64_t int_array_41[] = {294912L, 128L, 1L};
    auto buf31 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf27, 3, int_array_40, int_array_41, 0L)); buf27.reset();  // reuse
    // Topologically Sorted Source Nodes: [silu, conv2d_1, silu_1, add, flatten, transpose, scaled_dot_product_attention, add_1, linear_3], Original ATen: [aten.silu, aten.convolution, aten.add, aten.view, aten.transpose, aten._to_copy, aten.clone]
    call_triton_poi_fused__to_copy_add_clone_convolution_silu_transpose_view_11(buf13, buf15, conv2_bias, buf30, buf31, 589824L, this->device_idx_, stream, kernels, this->cubin_dir_);
    static constexpr int64_t int_array_42[] = {4608L, 512L};
    static constexpr int64_t int_array_43[] = {512L, 1L};
    AtenTensorHandle buf32_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(2, int_array_42, int_array_43, cached_torch_dtype_float16, cached_torch_device_type_cuda, this->device_idx_, &buf32_handle));
    RAIIAtenTensorHandle buf32(buf32_handle);
    // Topologically Sorted Source Nodes: [silu, conv2d_1, silu_1, add, flatten, transpose, scaled_dot_product_attention, add_1, linear_3], Original ATen: [aten.silu, aten.convolution, aten.add, aten.view, aten.transpose, aten._to_copy, aten.clone, aten._unsafe_view, aten.t, aten.mm]
    static constexpr int64_t int_array_44[] = {128L, 512L};
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_mm_out(buf32, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf31, 2, int_array_22, int_array_23, 0L)), wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(ff1_weight, 2, int_array_44, int_array_25, 0L))));
    static constexpr int64_t int_array_45[] = {2L, 2304L, 512L};
    static constexpr int64_t int_array_46[] = {1179648L, 512L, 1L};
    auto buf33 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf32, 3, int_array_45, int_array_46, 0L)); buf32.reset();  // reuse
    // Topologically Sorted Source Nodes: [linear_3, gelu], Original ATen: [aten._unsafe_view, aten.add, aten.gelu]
    call_triton_poi_fused__unsafe_view_add_gelu_12(buf33, ff1_bias, 2359296L, this->device_idx_, stream, kernels, this->cubin_dir_);
    static constexpr int64_t int_array_47[] = {4608L, 128L};
    static constexpr int64_t int_array_48[] = {128L, 1L};
    auto buf34 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf31, 2, int_array_47, int_array_48, 0L)); buf31.reset();  // reuse
    // Topologically Sorted Source Nodes: [linear_3, gelu, linear_4], Original ATen: [aten._unsafe_view, aten.add, aten.gelu, aten.view, aten.t, aten.addmm]
    static constexpr int64_t int_array_49[] = {4608L, 512L};
    static constexpr int64_t int_array_50[] = {512L, 1L};
    static constexpr int64_t int_array_51[] = {512L, 128L};
    static constexpr int64_t int_array_52[] = {1L, 512L};
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_addmm_out(buf34, ff2_bias, wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf33, 2, int_array_49, int_array_50, 0L)), wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(ff2_weight, 2, int_array_51, int_array_52, 0L)), 1L, 1L));
    buf33.reset();
    static constexpr int64_t int_array_53[] = {2L, 2304L, 128L};
    static constexpr int64_t int_array_54[] = {294912L, 128L, 1L};
    auto buf35 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf13, 3, int_array_53, int_array_54, 0L)); buf13.reset();  // reuse
    // Topologically Sorted Source Nodes: [silu, conv2d_1, silu_1, add, flatten, transpose, scaled_dot_product_attention, add_1, linear_4, add_2], Original ATen: [aten.silu, aten.convolution, aten.add, aten.view, aten.transpose, aten._to_copy]
    call_triton_poi_fused__to_copy_add_convolution_silu_transpose_view_13(buf35, buf15, conv2_bias, buf30, buf34, 589824L, this->device_idx_, stream, kernels, this->cubin_dir_);
    buf15.reset();
    buf30.reset();
    buf34.reset();
    static constexpr int64_t int_array_55[] = {4L, 128L, 3L, 3L};
    static constexpr int64_t int_array_56[] = {1152L, 1L, 384L, 128L};
    AtenTensorHandle buf36_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(4, int_array_55, int_array_56, cached_torch_dtype_float16, cached_torch_device_type_cuda, this->device_idx_, &buf36_handle));
    RAIIAtenTensorHandle buf36(buf36_handle);
    // Topologically Sorted Source Nodes: [silu, conv2d_1, silu_1, add, flatten, transpose, scaled_dot_product_attention, add_1, linear_4, add_2, transpose_1, reshape, conv2d_2], Original ATen: [aten.silu, aten.convolution, aten.add, aten.view, aten.transpose, aten._to_copy]
    call_triton_poi_fused__to_copy_add_convolution_silu_transpose_view_14(conv_out_weight, buf36, 512L, 9L, this->device_idx_, stream, kernels, this->cubin_dir_);
    // Topologically Sorted Source Nodes: [silu, conv2d_1, silu_1, add, flatten, transpose, scaled_dot_product_attention, add_1, linear_4, add_2, transpose_1, reshape, conv2d_2], Original ATen: [aten.silu, aten.convolution, aten.add, aten.view, aten.transpose, aten._to_copy]
    static constexpr int64_t int_array_57[] = {2L, 128L, 48L, 48L};
    static constexpr int64_t int_array_58[] = {294912L, 1L, 6144L, 128L};
    AtenTensorHandle buf37_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cuda_convolution(wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf35, 4, int_array_57, int_array_58, 0L)), buf36, nullptr, std::array<int64_t, 2>{1L, 1L}.cbegin(), 2, std::array<int64_t, 2>{1L, 1L}.cbegin(), 2, std::array<int64_t, 2>{1L, 1L}.cbegin(), 2, 0, std::array<int64_t, 2>{0L, 0L}.cbegin(), 2, 1L, &buf37_handle));
    RAIIAtenTensorHandle buf37(buf37_handle);
    buf35.reset();
    buf36.reset();
    static constexpr int64_t int_array_59[] = {2L, 4L, 48L, 48L};
    static constexpr int64_t int_array_60[] = {9216L, 2304L, 48L, 1L};
    AtenTensorHandle buf38_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(4, int_array_59, int_array_60, cached_torch_dtype_float16, cached_torch_device_type_cuda, this->device_idx_, &buf38_handle));
    RAIIAtenTensorHandle buf38(buf38_handle);
    // Topologically Sorted Source Nodes: [silu, conv2d_1, silu_1, add, flatten, transpose, scaled_dot_product_attention, add_1, linear_4, add_2, transpose_1, reshape, conv2d_2], Original ATen: [aten.silu, aten.convolution, aten.add, aten.view, aten.transpose, aten._to_copy]
    call_triton_poi_fused__to_copy_add_convolution_silu_transpose_view_15(buf37, buf38, 8L, 2304L, this->device_idx_, stream, kernels, this->cubin_dir_);
    buf37.reset();
    output_handles[0] = buf38.release();
} // AOTInductorModel::run_impl
} // namespace torch::aot_inductor




// Compile cmd
// /opt/gcc/bin/g++ /tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/cvz5stonjfdcslryuqfy6dhmmreev7l6ckj3petyrs2xkhkvro6d.wrapper.cpp -D TORCH_INDUCTOR_CPP_WRAPPER -D STANDALONE_TORCH_HEADER -D  C10_USING_CUSTOM_GENERATED_MACROS -D CPU_CAPABILITY_AVX512 -D  USE_CUDA  -O1 -DNDEBUG -fno-trapping-math -funsafe-math-optimizations -ffinite-math-only -fno-signed-zeros -fno-math-errno -fno-finite-math-only -fno-unsafe-math-optimizations -ffp-contract=off -fexcess-precision=fast -fno-tree-loop-vectorize -march=native -fPIC -Wall -std=c++17 -Wno-unused-variable -Wno-unknown-pragmas -pedantic -fopenmp  -include /tmp/torchinductor_root/precompiled_headers/csp62wdcnqt7znkstg2qqe36naapvmzcqrazndexiavcqme4owsl.h -I/usr/include/python3.12 -I/opt/torch/.venv/lib/python3.12/site-packages/torch/include -I/opt/torch/.venv/lib/python3.12/site-packages/torch/include/torch/csrc/api/include -I/usr/local/cuda/include   -mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma -mavx512vnni -mavx512vl -mamx-tile -mamx-bf16 -mamx-int8 -mavx512bf16  -c -o /tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/cvz5stonjfdcslryuqfy6dhmmreev7l6ckj3petyrs2xkhkvro6d.wrapper.o
// Link cmd
// /opt/gcc/bin/g++ /tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/cvz5stonjfdcslryuqfy6dhmmreev7l6ckj3petyrs2xkhkvro6d.wrapper.o /tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/cnll3aihvvmxftod7lc4w3s3gei3xuycm5qlcdwdvuqijqkgsfgq.kernel.o /tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/cvz5stonjfdcslryuqfy6dhmmreev7l6ckj3petyrs2xkhkvro6d/cfx3iseqapmjqrjwbc5w5ucukh5y37itzkfq3oytolfabqw63wan.weights.o -D TORCH_INDUCTOR_CPP_WRAPPER -D STANDALONE_TORCH_HEADER -D  C10_USING_CUSTOM_GENERATED_MACROS -D CPU_CAPABILITY_AVX512 -D  USE_CUDA  -O3 -DNDEBUG -fno-trapping-math -funsafe-math-optimizations -ffinite-math-only -fno-signed-zeros -fno-math-errno -fno-finite-math-only -fno-unsafe-math-optimizations -ffp-contract=off -fexcess-precision=fast -fno-tree-loop-vectorize -march=native -shared -fPIC -Wall -std=c++17 -Wno-unused-variable -Wno-unknown-pragmas -pedantic -fopenmp  -I/usr/include/python3.12 -I/opt/torch/.venv/lib/python3.12/site-packages/torch/include -I/opt/torch/.venv/lib/python3.12/site-packages/torch/include/torch/csrc/api/include -I/usr/local/cuda/include   -mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma -mavx512vnni -mavx512vl -mamx-tile -mamx-bf16 -mamx-int8 -mavx512bf16  -o /tmp/probe-run/lanes/0.0.0/mints/probe-aot/H200/r2/a1/cache/inductor/cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp/cvz5stonjfdcslryuqfy6dhmmreev7l6ckj3petyrs2xkhkvro6d.wrapper.so  -ltorch -ltorch_cpu -lgomp -lcuda -ltorch_cuda  -L/usr/lib/x86_64-linux-gnu -L/opt/torch/.venv/lib/python3.12/site-packages/torch/lib -L/usr/local/cuda-13.0/targets/x86_64-linux/lib -L/usr/local/cuda-13.0/targets/x86_64-linux/lib/stubs 
