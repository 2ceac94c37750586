import { createContext, useContext } from "react";

const NonceContext = createContext<string>("");
export const NonceProvider = NonceContext.Provider;
/** The CSP nonce for inline scripts rendered by the app. */
export const useNonce = () => useContext(NonceContext);
