// One application's settings, for its owner: OAuth2 (client credentials, redirects), Activities (settings, entry
// point, URL Mappings), Installation (contexts, install links) and Bot (token). Sections are anchors in one page.
import type { Metadata } from "next";
import Link from "next/link";
import { getApplicationSettings } from "@/lib/guild-api/services/applications";
import { PRIVILEGED_INTENT_SETTINGS, privilegedIntentsOf } from "@/lib/guild-api/services/gateway-intents";
import {
  addRedirectUriAction,
  removeRedirectUriAction,
  resetBotTokenAction,
  resetClientSecretAction,
  saveUrlMappingsAction,
  setActivitiesEnabledAction,
  setEntryPointHandlerAction,
  setInstallationContextsAction,
  setPrivilegedIntentAction,
} from "../../actions";
import { ActivitiesSettings } from "../../_components/activities-settings";
import { AppAvatar } from "../../_components/app-avatar";
import { CopyField } from "../../_components/copy-field";
import { ChevronLeftIcon } from "../../_components/icons";
import { InstallationSettings } from "../../_components/installation-settings";
import { PrivilegedIntents } from "../../_components/privileged-intents";
import { RedirectsEditor } from "../../_components/redirects-editor";
import { SecretReset } from "../../_components/secret-reset";
import { SectionNav } from "../../_components/section-nav";
import { Card, FieldLabel, Section } from "../../_components/section";
import { UrlMappingsEditor } from "../../_components/url-mappings-editor";
import { requireOwnedApplication } from "../../_lib/session";
import { publicOrigin } from "../../../_lib/public-origin";

type Params = Promise<{ applicationId: string }>;

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { applicationId } = await params;
  return { title: `Application ${applicationId}` };
}

export default async function ApplicationPage({ params }: { params: Params }) {
  const { applicationId } = await params;
  const { access } = await requireOwnedApplication(applicationId);
  const app = await getApplicationSettings(access);
  const origin = await publicOrigin();
  const bind = <A extends unknown[], R>(action: (id: string, ...rest: A) => Promise<R>) => action.bind(null, app.id);

  return (
    <div className="mx-auto flex max-w-7xl gap-8 px-4 py-8 sm:px-6">
      <aside className="hidden w-60 shrink-0 lg:block">
        <div className="sticky top-22 flex flex-col gap-4">
          <Link
            href="/developers/applications"
            className="flex items-center gap-1 text-sm text-ink-muted hover:text-ink"
          >
            <ChevronLeftIcon className="size-4" /> All applications
          </Link>
          <div className="flex items-center gap-3 rounded-xl bg-surface p-3 ring-1 ring-line">
            <AppAvatar name={app.name} className="size-10 text-lg" />
            <div className="min-w-0">
              <p className="truncate font-semibold">{app.name}</p>
              <p className="text-xs text-ink-muted">{app.activitiesEnabled ? "Activity enabled" : "Application"}</p>
            </div>
          </div>
          <SectionNav />
        </div>
      </aside>

      <main className="flex min-w-0 flex-1 flex-col gap-12 pb-24">
        <Section
          id="general"
          title="General Information"
          description="What should people call this app? What amazing things does it do? Set that here."
        >
          <div className="flex items-start gap-5">
            <AppAvatar name={app.name} className="size-20 text-3xl shadow-md" />
            <div className="grid min-w-0 flex-1 gap-4 sm:grid-cols-2">
              <div>
                <FieldLabel>Name</FieldLabel>
                <p className="text-lg font-semibold">{app.name}</p>
              </div>
              <CopyField label="Application ID" value={app.id} />
              <div className="sm:col-span-2">
                <FieldLabel>Description</FieldLabel>
                <p className="text-sm text-ink-muted">
                  {app.description || "No description yet. Set it with PATCH /applications/@me."}
                </p>
              </div>
            </div>
          </div>
        </Section>

        <Section
          id="oauth2"
          title="OAuth2"
          description="Use Guildhall as an authorization system, or use the API on behalf of your users. Add a redirect URI, pick scopes, and send people through /oauth2/authorize."
        >
          <Card title="Client information">
            <div className="grid gap-5 sm:grid-cols-2">
              <CopyField label="Client ID" value={app.id} />
              <SecretReset
                kind="client-secret"
                label="Client Secret"
                action={bind(resetClientSecretAction)}
                confirmTitle="Reset the client secret?"
                confirmText="Your app will stop exchanging codes until you give it the new secret. Existing access tokens keep working."
                buttonLabel="Reset Secret"
              />
            </div>
          </Card>
          <Card
            id="redirects"
            title="Redirects"
            description="The authorize endpoint only sends codes to these addresses, compared exactly. An Activity's SDK flow uses no redirect, but still needs one registered: a placeholder such as https://127.0.0.1 is fine."
          >
            <RedirectsEditor
              redirectUris={app.redirectUris}
              addAction={bind(addRedirectUriAction)}
              removeAction={bind(removeRedirectUriAction)}
            />
          </Card>
        </Section>

        <Section
          id="activities"
          title="Activities"
          description="Activities are web apps that run in an iframe in the client, behind Discord's proxy. Turn them on, pick how the Launch command behaves, and map every address the Activity calls."
        >
          <Card id="activity-settings" title="Settings">
            <ActivitiesSettings
              appName={app.name}
              enabled={app.activitiesEnabled}
              hasRootMapping={app.urlMappings.some((m) => m.prefix === "/")}
              entryPoint={app.entryPoint}
              toggleAction={bind(setActivitiesEnabledAction)}
              handlerAction={bind(setEntryPointHandlerAction)}
            />
          </Card>
          <Card
            id="url-mappings"
            title="URL Mappings"
            description="Requests from your Activity to /.proxy/<prefix>/… go to https://<target>/…; the longest matching prefix wins. The root mapping (/) is your Activity's own frontend host."
          >
            <UrlMappingsEditor
              applicationId={app.id}
              mappings={app.urlMappings}
              activitiesEnabled={app.activitiesEnabled}
              saveAction={bind(saveUrlMappingsAction)}
            />
          </Card>
        </Section>

        <Section
          id="installation"
          title="Installation"
          description="Choose where your app can be installed, and share a link to install it."
        >
          <InstallationSettings
            applicationId={app.id}
            origin={origin}
            contexts={app.installationContexts}
            hasBot={app.bot !== null}
            saveAction={bind(setInstallationContextsAction)}
          />
        </Section>

        <Section
          id="bot"
          title="Bot"
          description="Bring your app to life on servers: the bot user acts with the token below, through the guild API."
        >
          {app.bot ? (
            <Card title="Build-a-bot">
              <div className="grid gap-5 sm:grid-cols-2">
                <div>
                  <FieldLabel>Username</FieldLabel>
                  <p className="flex items-center gap-2 font-semibold">
                    {app.bot.username}
                    <span className="rounded bg-blurple px-1 py-px text-[10px] font-bold uppercase text-white">
                      App
                    </span>
                  </p>
                  <p className="mt-1 font-mono text-xs text-ink-muted">{app.bot.id}</p>
                </div>
                <SecretReset
                  kind="bot-token"
                  label="Token"
                  action={bind(resetBotTokenAction)}
                  confirmTitle="Reset the bot's token?"
                  confirmText="Your bot will stop working until you update its code with the new token. Anything using the old token is refused from now on."
                  buttonLabel="Reset Token"
                />
              </div>
            </Card>
          ) : (
            <Card title="No bot">
              <p className="text-sm text-ink-muted">This application has no bot user.</p>
            </Card>
          )}
          {app.bot && (
            <Card
              id="privileged-intents"
              title="Privileged Gateway Intents"
              description="Some gateway events carry data about people: turn on each intent your bot needs before it asks for it at IDENTIFY."
            >
              <PrivilegedIntents
                intents={PRIVILEGED_INTENT_SETTINGS.map(({ key, label, description }) => ({
                  key,
                  label,
                  description,
                  enabled: privilegedIntentsOf(app.flags)[key],
                }))}
                saveAction={bind(setPrivilegedIntentAction)}
              />
            </Card>
          )}
        </Section>
      </main>
    </div>
  );
}
