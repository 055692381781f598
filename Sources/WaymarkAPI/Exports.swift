// The API types are generated from Sources/openapi.yaml at build time (see
// openapi-generator-config.yaml); nothing generated is committed.
@_exported import OpenAPIRuntime
