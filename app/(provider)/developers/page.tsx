import { redirect } from "next/navigation";

export default function DevelopersHome() {
  redirect("/developers/applications");
}
