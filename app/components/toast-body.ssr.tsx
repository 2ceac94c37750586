import { ToastBody } from "./toast-body";

/** The toast for the server, which renders it directly; empty in the browser build (toast.tsx). */
export default { ToastBody };
