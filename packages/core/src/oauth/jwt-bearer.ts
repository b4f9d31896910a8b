/**
 * The `client_assertion_type` of JWT client authentication: SMART client assertions
 * (`private_key_jwt`) and UDAP authentication tokens alike.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7523#section-2.2
 */
export const jwtBearerAssertionType = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'
