// The whole page: a single <div>.
export default function Page() {
  return <div>baseline</div>
}
